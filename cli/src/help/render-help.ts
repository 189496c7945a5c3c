// Upstream's help texts (minio/cli SubcommandHelpTemplate for a group, mc's
// own template for `mc --help`), with Go's tabwriter layout: a column is as
// wide as its longest cell plus two spaces.
import { versionText } from "../core/version.js";
import type { CommandTree } from "./command-tree.js";
import { autocompletionFlag, flagCells, globalFlags, helpFlag, versionFlag } from "./global-flags.js";

/** Rows of two cells, the first column as wide as its longest cell plus two spaces. */
export function columns(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(0, ...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`.trimEnd()).join("\n");
}

function commandRows(tree: CommandTree, group: readonly string[]): [string, string][] {
  return tree.entries(group).map((e) => [e.names.join(", "), e.description]);
}

/** `mc GROUP --help`: name, usage, the subcommands with one line each, the flags every subcommand takes. */
export function renderGroupHelp(tree: CommandTree, group: readonly string[]): string {
  const name = `mc ${group.join(" ")}`;
  return [
    "NAME:",
    `  ${name} - ${tree.description(group)}`,
    "",
    "USAGE:",
    `  ${name} COMMAND [COMMAND FLAGS | -h] [ARGUMENTS...]`,
    "",
    "COMMANDS:",
    columns(commandRows(tree, group)),
    "",
    "FLAGS:",
    columns([...globalFlags, helpFlag].map(flagCells)),
    "",
  ].join("\n");
}

/** `mc --help`: every top-level command on one line, and the global flags once. */
export function renderAppHelp(tree: CommandTree): string {
  const [, , copyright = "", license = ""] = versionText().split("\n");
  return [
    "NAME:",
    "  mc - MinIO Client for object storage and filesystems.",
    "",
    "USAGE:",
    "  mc [FLAGS] COMMAND [COMMAND FLAGS | -h] [ARGUMENTS...]",
    "",
    "COMMANDS:",
    columns(commandRows(tree, [])),
    "",
    "GLOBAL FLAGS:",
    columns([...globalFlags, autocompletionFlag, helpFlag, versionFlag].map(flagCells)),
    "",
    "COPYRIGHT:",
    `  ${copyright}`,
    "",
    "LICENSE:",
    `  ${license.replace(/^License /, "")}`,
    "",
  ].join("\n");
}
