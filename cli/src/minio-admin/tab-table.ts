import { displayWidth } from "./text-box.js";

/**
 * A table as olekukonko/tablewriter prints one for upstream's `support perf`
 * and `support top` views (no borders, no header line, tab padding): the
 * header upper-cased, each cell padded to its column's width, columns
 * separated by a tab; trailing blanks trimmed.
 */
export function tabTable(header: readonly string[], rows: readonly (readonly string[])[], align: "left" | "center" = "left"): string {
  const all = [header.map((h) => h.toUpperCase()), ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => displayWidth(r[i] ?? ""))));
  const pad = (text: string, i: number): string => {
    const gap = (widths[i] ?? 0) - displayWidth(text);
    const left = align === "center" ? Math.floor(gap / 2) : 0;
    return " ".repeat(left) + text + " ".repeat(gap - left);
  };
  return all.map((r) => header.map((_, i) => pad(r[i] ?? "", i)).join("\t").replace(/\s+$/, "")).join("\n");
}

/**
 * tablewriter with rows only (no header line of its own), left aligned, no
 * white space of its own and `sep` between columns: each cell padded to its
 * column's width; trailing blanks trimmed.
 */
export function plainTable(rows: readonly (readonly string[])[], sep: string): string {
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, i) => Math.max(...rows.map((r) => displayWidth(r[i] ?? ""))));
  return rows.map((r) => widths.map((w, i) => (r[i] ?? "") + " ".repeat(w - displayWidth(r[i] ?? ""))).join(sep).replace(/\s+$/, "")).join("\n");
}
