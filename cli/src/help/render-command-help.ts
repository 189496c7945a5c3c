// A command's help in upstream's layout (mc's CustomHelpTemplate of each
// command): NAME, USAGE with the argument names, the command's own FLAGS,
// ENVIRONMENT VARIABLES where it reads some, numbered EXAMPLES, and the
// global flags once under GLOBAL FLAGS.
import { commandEnv } from "./command-env.js";
import { flagNames, type CommandHelp } from "./command-help.js";
import { flagCells, globalFlags, helpFlag } from "./global-flags.js";
import { columns } from "./render-help.js";

/** `mc cp [FLAGS] SOURCE [SOURCE...] TARGET`. */
export function usageLine(help: CommandHelp): string {
  return ["mc", ...help.path, "[FLAGS]", ...help.arguments].join(" ");
}

/** Words of `text` in lines of at most `width` characters, each indented. */
function wrap(text: string, indent: string, width = 78): string {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    // A line's own indentation (a list under a heading) is kept on its wrapped lines.
    const lead = /^\s*/.exec(paragraph)?.[0] ?? "";
    let line = "";
    for (const word of paragraph.split(/\s+/).filter((w) => w !== "")) {
      if (line !== "" && indent.length + lead.length + line.length + 1 + word.length > width) {
        lines.push(`${lead}${line}`);
        line = word;
      } else line = line === "" ? word : `${line} ${word}`;
    }
    lines.push(`${lead}${line}`);
  }
  return lines.map((l) => `${indent}${l}`.trimEnd()).join("\n");
}

function flagRows(help: CommandHelp): [string, string][] {
  return [...help.flags.map((f): [string, string] => [flagNames(f), f.description]), flagCells(helpFlag)];
}

/** USAGE and FLAGS: what a usage error prints after its one line. */
export function renderCommandUsage(help: CommandHelp): string {
  return ["USAGE:", `  ${usageLine(help)}`, "", "FLAGS:", columns(flagRows(help)), ""].join("\n");
}

function examples(help: CommandHelp): string {
  return help.examples
    .map(([label, line], i) => {
      const number = `${i + 1}. `;
      const indent = " ".repeat(2 + number.length);
      const [first = "", ...rest] = label.split("\n");
      return [`  ${number}${first}`, ...rest.map((l) => `${indent}${l}`), ...line.split("\n").map((l, j) => `${indent}${j === 0 ? "$ " : "  "}${l}`)].join("\n");
    })
    .join("\n\n");
}

/** `mc COMMAND --help`. */
export function renderCommandHelp(help: CommandHelp): string {
  const env = commandEnv(help);
  const sections = [
    `NAME:\n  mc ${help.path.join(" ")} - ${help.description}`,
    `USAGE:\n  ${usageLine(help)}`,
    ...(help.details ? [`DESCRIPTION:\n${wrap(help.details, "  ")}`] : []),
    `FLAGS:\n${columns(flagRows(help))}`,
    ...(env.length > 0 ? [`ENVIRONMENT VARIABLES:\n${env.map(([name, text]) => `  ${name}: ${text}`).join("\n")}`] : []),
    ...(help.examples.length > 0 ? [`EXAMPLES:\n${examples(help)}`] : []),
    `GLOBAL FLAGS:\n${columns(globalFlags.map(flagCells))}`,
  ];
  return `${sections.join("\n\n")}\n`;
}
