/**
 * A table as charmbracelet/lipgloss draws one with its normal border (what
 * upstream's `ilm tier info` prints): columns as wide as their widest cell,
 * header and text cells centred (an odd space goes right), `right` columns
 * right-aligned.
 */
export function boxTable(headers: readonly string[], rows: readonly (readonly string[])[], right: readonly number[] = []): string {
  const widths = headers.map((h, i) => Math.max([...h].length, ...rows.map((r) => [...(r[i] ?? "")].length)));
  const line = (l: string, m: string, r: string): string => `${l}${widths.map((w) => "─".repeat(w)).join(m)}${r}`;
  const cell = (text: string, i: number, header: boolean): string => {
    const gap = (widths[i] ?? 0) - [...text].length;
    if (!header && right.includes(i)) return " ".repeat(gap) + text;
    const left = Math.floor(gap / 2);
    return " ".repeat(left) + text + " ".repeat(gap - left);
  };
  const row = (cells: readonly string[], header: boolean): string => `│${cells.map((c, i) => cell(c, i, header)).join("│")}│`;
  return [line("┌", "┬", "┐"), row(headers, true), line("├", "┼", "┤"), ...rows.map((r) => row(r, false)), line("└", "┴", "┘")].join("\n");
}
