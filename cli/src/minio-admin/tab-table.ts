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
