// What a command's help shows, read from its clipanion definition: the
// options and positional arguments each command class declares, its usage
// (description, details, examples). Clipanion builds its parser by calling
// each option's `definition(builder)`; a builder that only records the calls
// gives the same names without building a parser.
import { Command } from "clipanion";
import { globalFlags } from "./global-flags.js";

/** The flags every command takes (BaseCommand declares them): shown once, under GLOBAL FLAGS. */
const globalNames = new Set(globalFlags.flatMap((f) => f.names));

/** What the help needs of a command class (clipanion's static fields). */
export interface HelpCommandClass {
  new (): object;
  readonly paths?: string[][];
  readonly usage?: { readonly description?: string; readonly details?: string; readonly examples?: readonly (readonly [string, string])[] } | undefined;
}

export interface FlagHelp {
  /** As declared: `-r`, `--recursive`; long names first when shown. */
  readonly names: readonly string[];
  /** Takes a value (`--rewind value`). */
  readonly value: boolean;
  readonly description: string;
}

export interface CommandHelp {
  /** The command's path (`["admin", "kms", "key", "status"]`). */
  readonly path: readonly string[];
  /** Other paths of the same command (`ilm rule ls`). */
  readonly aliases: readonly (readonly string[])[];
  readonly description: string;
  readonly details: string;
  /**
   * The positional arguments as the usage line shows them, each name
   * verbatim from the definition (`SOURCE [SOURCE...] TARGET`): a name
   * carries its own brackets and dots, as clipanion's optional positionals
   * are often optional only so that the command can word its own error.
   */
  readonly arguments: readonly string[];
  /** The command's own flags, without the global ones and hidden ones. */
  readonly flags: readonly FlagHelp[];
  /** `[label, command line]`, `$0` already replaced by `mc`. */
  readonly examples: readonly (readonly [string, string])[];
}

interface OptionSpec {
  definition(builder: unknown, key: string): void;
}

interface Recorded {
  readonly flags: FlagHelp[];
  readonly positionals: string[];
}

/** A stand-in for clipanion's command builder that records what a command declares. */
function recorder(out: Recorded): Record<string, (o: Record<string, unknown>) => void> {
  return {
    addOption: (o) => {
      const names = (o["names"] as string[] | undefined) ?? [];
      if (o["hidden"] === true || names.some((n) => globalNames.has(n))) return;
      out.flags.push({ names, value: Number(o["arity"] ?? 0) > 0, description: typeof o["description"] === "string" ? o["description"] : "" });
    },
    addPositional: (o) => {
      out.positionals.push(typeof o["name"] === "string" ? o["name"] : "ARG");
    },
    addRest: (o) => {
      out.positionals.push(typeof o["name"] === "string" ? o["name"] : "ARG...");
    },
    addProxy: () => {
      out.positionals.push("ARGS...");
    },
  };
}

function isOptionSpec(value: unknown): value is OptionSpec {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[Command.isOption] === true;
}

/** The help of one command class. */
export function describeCommand(commandClass: HelpCommandClass): CommandHelp {
  const recorded: Recorded = { flags: [], positionals: [] };
  const builder = recorder(recorded);
  const instance = new commandClass() as Record<string, unknown>;
  for (const key of Object.keys(instance)) {
    const value = instance[key];
    if (isOptionSpec(value)) value.definition(builder, key);
  }
  const [path = [], ...aliases] = commandClass.paths ?? [];
  const usage = commandClass.usage;
  return {
    path,
    aliases,
    description: usage?.description ?? "",
    details: usage?.details ?? "",
    arguments: recorded.positionals,
    flags: recorded.flags,
    examples: (usage?.examples ?? []).map(([label, line]) => [label, line.replace(/\$0/g, "mc")] as const),
  };
}

/** `--recursive, -r` / `--rewind value` as urfave/cli prints a flag: long names first. */
export function flagNames(flag: FlagHelp): string {
  const ordered = [...flag.names.filter((n) => n.startsWith("--")), ...flag.names.filter((n) => !n.startsWith("--"))];
  return ordered.map((n) => (flag.value ? `${n} value` : n)).join(", ");
}

/**
 * True when a command line asks for the command's help: `-h` or `--help`
 * anywhere before `--`, as urfave/cli reads it (`mc cp a b -h`), unless it is
 * the value of a flag that takes one (`--attr --help`).
 */
export function asksForHelp(help: CommandHelp, args: readonly string[]): boolean {
  const valued = new Set([...help.flags, ...globalFlags].filter((f) => f.value).flatMap((f) => f.names));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--") return false;
    if (arg === "-h" || arg === "--help") return true;
    if (valued.has(arg)) i++;
  }
  return false;
}
