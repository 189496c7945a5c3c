/**
 * Go formatting that upstream mc's admin output goes through: time.Duration
 * String(), text/tabwriter, pkg/console's Table, go-humanize's Comma and
 * Ordinal. Pure functions of their input.
 */

const units: readonly [number, string][] = [
  [1e6, "ms"],
  [1e3, "µs"],
  [1, "ns"],
];

/** Go `time.Duration(ns).String()`: `0s`, `850ns`, `1.5µs`, `2.25ms`, `3.5s`, `1m0s`, `2h3m4.5s`. */
export function goDuration(ns: number): string {
  if (!Number.isFinite(ns) || ns === 0) return "0s";
  const sign = ns < 0 ? "-" : "";
  const a = Math.abs(Math.trunc(ns));
  const fraction = (v: number, scale: number): string => {
    const whole = Math.floor(v / scale);
    const rest = v % scale;
    if (rest === 0) return String(whole);
    const digits = String(scale).length - 1;
    return `${whole}.${String(rest).padStart(digits, "0").replace(/0+$/, "")}`;
  };
  if (a < 1e9) {
    for (const [scale, unit] of units) if (a >= scale) return `${sign}${fraction(a, scale)}${unit}`;
  }
  const h = Math.floor(a / 3.6e12);
  const m = Math.floor((a % 3.6e12) / 6e10);
  const s = fraction(a % 6e10, 1e9);
  return `${sign}${h > 0 ? `${h}h${m}m` : m > 0 ? `${m}m` : ""}${s}s`;
}

/** Go `Duration.Round(m)` (halves away from zero). */
export function goRound(ns: number, multiple: number): number {
  if (multiple <= 0) return ns;
  const r = ns % multiple;
  if (ns < 0) return -goRound(-ns, multiple);
  return r + r < multiple ? ns - r : ns + multiple - r;
}

/**
 * Go text/tabwriter (flags 0, padchar ' '): cells end at a tab; a column is
 * a run of consecutive lines that have a cell in it, as wide as its widest
 * cell plus `padding` (at least `minWidth`). The last cell of a line is not
 * aligned.
 */
export function tabwrite(text: string, minWidth = 1, padding = 2): string {
  const lines = text.split("\n").map((l) => l.split("\t"));
  const width = (s: string): number => [...s].length;
  const widths: number[][] = lines.map(() => []);
  const format = (start: number, end: number, column: number): void => {
    let i = start;
    while (i < end) {
      // Lines that have no cell (a tab-terminated one) in this column break the block.
      if ((lines[i]?.length ?? 0) - 1 <= column) {
        i++;
        continue;
      }
      let j = i;
      let w = minWidth;
      while (j < end && (lines[j]?.length ?? 0) - 1 > column) {
        w = Math.max(w, width(lines[j]?.[column] ?? "") + padding);
        j++;
      }
      for (let k = i; k < j; k++) (widths[k] ?? [])[column] = w;
      format(i, j, column + 1);
      i = j;
    }
  };
  format(0, lines.length, 0);
  return lines
    .map((cells, n) => cells.map((c, col) => (col < cells.length - 1 ? c + " ".repeat(Math.max(0, (widths[n]?.[col] ?? 0) - width(c))) : c)).join(""))
    .join("\n");
}

/**
 * minio/pkg console.Table DisplayTable (colours aside): a box of single
 * lines, each cell padded to its column's width with one space either side,
 * `right` columns right-aligned, every line indented by `indent` spaces.
 */
export function consoleTable(rows: readonly (readonly string[])[], right: readonly boolean[] = [], indent = 0): string {
  if (rows.length === 0) return "";
  const cols = Math.max(...rows.map((r) => r.length));
  const width = (s: string): number => [...s].length;
  const widths = Array.from({ length: cols }, (_, c) => Math.max(0, ...rows.map((r) => width(r[c] ?? ""))));
  const pad = " ".repeat(indent);
  const segments = widths.map((w) => "─".repeat(w + 2));
  const out = [`${pad}┌${segments.join("┬")}┐`];
  for (const r of rows) {
    const cells = widths.map((w, c) => {
      const t = r[c] ?? "";
      const gap = " ".repeat(w - width(t));
      return right[c] === true ? gap + t : t + gap;
    });
    out.push(`${pad}│ ${cells.join(" │ ")} │`);
  }
  out.push(`${pad}└${segments.join("┴")}┘`);
  return out.join("\n");
}

/** go-humanize Comma: `1234567` → `1,234,567`. */
export function comma(n: number): string {
  const s = String(Math.trunc(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return n < 0 ? `-${s}` : s;
}

/** go-humanize Ordinal: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}

/** Go's `fmt.Sprint([]string{…})`: `[a b c]`. */
export function goList(items: readonly string[] | null | undefined): string {
  return `[${(items ?? []).join(" ")}]`;
}
