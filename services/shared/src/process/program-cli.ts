// The one argument parser of the project's programs (kms, releases, gateway
// and the cluster launcher), on clipanion as `mc` is: a command is a class
// whose flags are `Option.*` fields. Every program answers the same way:
// `-h`, `--help` or `help` print its usage (or the command's own help) on
// stdout, exit 0; no command prints the usage on stderr; a mistake is one
// line `<program>: <what>` on stderr, then a blank line and the usage; both
// end with the usage status (1, the cluster launcher 2); a failure is one
// line `<program>: <what>`, exit 1, never a stack. Its own subpath (`@mc/shared/program`) keeps clipanion out of
// everything else of this package.
import "./no-color-warning.js";
import { Cli, Command, Option } from "clipanion";
import { isAppError } from "../app-error.js";
import { syntaxErrorLine } from "./syntax-error.js";

export { Command, Option };

/** A failure whose message is for the user as it is: printed as one line, no stack. */
export class ProgramError extends Error {
  override readonly name: string = "ProgramError";
}

/** A mistake in the command line: printed with the usage below it (the command's, when not given here). */
export class ProgramUsageError extends ProgramError {
  override readonly name: string = "ProgramUsageError";

  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}

/** A command of a program; `run` returns the exit code (0 when nothing). */
export abstract class ProgramCommand extends Command {
  /** What `<program> <command> --help` prints; the program's usage when unset. */
  static help: string | undefined;

  abstract run(): Promise<number | void>;

  async execute(): Promise<number> {
    return (await this.run()) ?? 0;
  }
}

export interface ProgramCommandClass {
  new (): ProgramCommand;
  readonly paths?: string[][];
  readonly help: string | undefined;
}

export interface Program {
  readonly name: string;
  /** The help text of the program, as its documentation shows it. */
  readonly usage: string;
  readonly commands: readonly ProgramCommandClass[];
  /** The status of a mistake in the command line (and of no command): 1 unless the program has always said otherwise (the cluster launcher: 2). */
  readonly usageStatus?: number;
}

export type ParsedCommandLine =
  | { readonly kind: "help"; readonly text: string }
  /** No command given: the usage goes to stderr and the program ends with its usage status. */
  | { readonly kind: "none" }
  | { readonly kind: "command"; readonly command: ProgramCommand; readonly help: string };

const helpFlags = ["-h", "--help"];

/** The command whose path starts the command line (the longest such path). */
function commandOf(program: Program, words: readonly string[]): { command: ProgramCommandClass; path: string[] } | undefined {
  let found: { command: ProgramCommandClass; path: string[] } | undefined;
  for (const command of program.commands) {
    for (const path of command.paths ?? [[]]) {
      if (path.every((w, i) => words[i] === w) && path.length >= (found?.path.length ?? -1)) found = { command, path };
    }
  }
  return found;
}

/** The command a help request names: a whole path, or the first words of the paths of one command (`kms cluster --help`). */
function helpTargetOf(program: Program, words: readonly string[]): ProgramCommandClass | undefined {
  const exact = commandOf(program, words);
  if (exact && exact.path.length > 0) return exact.command;
  const flag = words.findIndex((w) => w.startsWith("-"));
  const named = flag < 0 ? words : words.slice(0, flag);
  const owners = program.commands.filter((c) => (c.paths ?? []).some((p) => named.length > 0 && named.every((w, i) => p[i] === w)));
  return owners.length === 1 ? owners[0] : undefined;
}

/** clipanion's reason for refusing a command line, worded as our programs word it. */
function mistakeOf(err: unknown, program: Program, argv: readonly string[]): string {
  const first = syntaxErrorLine(err);
  const option = /^Unsupported option name \("(.*)"\)\.$/.exec(first);
  if (option) return `Unknown option '${option[1]}'`;
  const value = /^Not enough arguments to option (.*)\.$/.exec(first);
  if (value) return `Option '${value[1]}' needs a value`;
  const extra = /^Extraneous positional argument \("(.*)"\)\.$/.exec(first);
  if (extra) return `Unexpected argument '${extra[1]}'`;
  const words = argv.filter((w) => !w.startsWith("-"));
  const known = commandOf(program, words);
  if (known && known.path.length > 0) return `Wrong arguments for '${known.path.join(" ")}': ${argv.slice(known.path.length).join(" ")}`;
  return `Unknown command '${words.join(" ")}'`;
}

/** Reads the command line; throws ProgramUsageError (with the usage to show) on a mistake. */
export function parseCommandLine(program: Program, argv: readonly string[]): ParsedCommandLine {
  const end = argv.indexOf("--");
  const words = end < 0 ? argv : argv.slice(0, end);
  const target = commandOf(program, words);
  const help = target?.command.help ?? program.usage;
  if (words[0] === "help" && !target) return { kind: "help", text: program.usage };
  if (words.some((w) => helpFlags.includes(w))) return { kind: "help", text: helpTargetOf(program, words)?.help ?? program.usage };
  if (argv.length === 0 && !program.commands.some((c) => (c.paths ?? [[]]).some((p) => p.length === 0))) return { kind: "none" };
  const cli = new Cli({ binaryName: program.name, enableColors: false });
  for (const command of program.commands) cli.register(command);
  let command: Command;
  try {
    command = cli.process([...argv]);
  } catch (err) {
    throw new ProgramUsageError(mistakeOf(err, program, argv), help);
  }
  if (!(command instanceof ProgramCommand)) return { kind: "help", text: program.usage };
  return { kind: "command", command, help };
}

/** The one line (and for a mistake, the usage) a failure prints, ending in a newline. */
export function failureText(program: Pick<Program, "name" | "usage">, err: unknown, context: { readonly path?: readonly string[]; readonly usage?: string } = {}): string {
  const message = err instanceof Error ? err.message : String(err);
  // A message already in the program's words (e.g. the KMS's startup errors).
  if (message.startsWith(`${program.name}: `)) return `${message}\n`;
  if (err instanceof ProgramUsageError) {
    return `${program.name}: ${message}\n\n${err.usage ?? context.usage ?? program.usage}`;
  }
  if (err instanceof ProgramError || (isAppError(err) && err.reason !== "internal")) return `${program.name}: ${message}\n`;
  // Anything else (a file that cannot be written, a library's error): its first line, without the errno code.
  const line = (message.split("\n")[0] ?? message).replace(/^E[A-Z]+: /, "");
  const path = context.path ?? [];
  return `${program.name}: ${path.length > 0 ? `${path.join(" ")}: ` : ""}${line}\n`;
}

/** Resolves once the text is written: exiting right after write() would hide a closed stdout behind the code. */
export function writeOut(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

/** Parses the command line and runs the command; returns the exit code. */
export async function runProgram(program: Program, argv: readonly string[], io: { readonly stdout: NodeJS.WritableStream; readonly stderr: NodeJS.WritableStream } = process): Promise<number> {
  let parsed: ParsedCommandLine;
  try {
    parsed = parseCommandLine(program, argv);
  } catch (err) {
    await writeOut(io.stderr, failureText(program, err));
    return program.usageStatus ?? 1;
  }
  if (parsed.kind === "help") {
    await writeOut(io.stdout, parsed.text);
    return 0;
  }
  if (parsed.kind === "none") {
    await writeOut(io.stderr, program.usage);
    return program.usageStatus ?? 1;
  }
  try {
    return await parsed.command.execute();
  } catch (err) {
    await writeOut(io.stderr, failureText(program, err, { path: parsed.command.path, usage: parsed.help }));
    return err instanceof ProgramUsageError ? (program.usageStatus ?? 1) : 1;
  }
}
