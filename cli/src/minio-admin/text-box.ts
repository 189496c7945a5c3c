/**
 * The little text layouts real mc draws with lipgloss (no colour here: our
 * text output is plain): a rounded box around lines, cells padded and
 * aligned, and go-humanize's relative times.
 */

/** Terminal columns of a string: emoji and East Asian wide characters take two. */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    w += cp >= 0x1100 && (cp <= 0x115f || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xff00 && cp <= 0xff60) || cp >= 0x1f000) ? 2 : 1;
  }
  return w;
}

/** A cell of `width` columns (padding included, as lipgloss counts it), text aligned inside. */
export function cell(text: string, width: number, align: "left" | "right" | "center", padLeft = 1, padRight = 1): string {
  const inner = Math.max(0, width - padLeft - padRight);
  const gap = Math.max(0, inner - displayWidth(text));
  const left = align === "right" ? gap : align === "center" ? Math.floor(gap / 2) : 0;
  return `${" ".repeat(padLeft + left)}${text}${" ".repeat(gap - left + padRight)}`;
}

/** lipgloss RoundedBorder around the lines (each padded to the widest). */
export function roundedBox(lines: readonly string[]): string {
  const width = Math.max(0, ...lines.map(displayWidth));
  const body = lines.map((l) => `│${l}${" ".repeat(width - displayWidth(l))}│`);
  return [`╭${"─".repeat(width)}╮`, ...body, `╰${"─".repeat(width)}╯`].join("\n");
}

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;
const week = 7 * day;
const month = 30 * day;
const year = 12 * month;

/** go-humanize `Time`: "now", "3 days from now", "2 weeks ago", … */
export function humanizeTime(then: Date, now = new Date()): string {
  let diff = now.getTime() - then.getTime();
  const label = diff < 0 ? "from now" : "ago";
  diff = Math.abs(diff);
  const steps: readonly [number, string, number][] = [
    [second, "now", 0],
    [2 * second, "1 second", 0],
    [minute, "seconds", second],
    [2 * minute, "1 minute", 0],
    [hour, "minutes", minute],
    [2 * hour, "1 hour", 0],
    [day, "hours", hour],
    [2 * day, "1 day", 0],
    [week, "days", day],
    [2 * week, "1 week", 0],
    [month, "weeks", week],
    [2 * month, "1 month", 0],
    [year, "months", month],
    [18 * month, "1 year", 0],
    [2 * year, "2 years", 0],
    [37 * year, "years", year],
  ];
  for (const [limit, text, unit] of steps) {
    if (diff < limit) {
      if (text === "now") return "now";
      return unit === 0 ? `${text} ${label}` : `${Math.floor(diff / unit)} ${text} ${label}`;
    }
  }
  return `a long while ${label}`;
}
