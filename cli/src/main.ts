// Entry point of `mc`: the app's own flags (--help, --version) before the
// command, help for command groups, unknown commands as the contract prints
// them, then the clipanion command.
import { Builtins, type BaseContext, type Cli, type CommandClass } from "clipanion";
import { endOnClosedPipe } from "@mc/shared/closed-pipe";
import { registry } from "./command-registry.js";
import { joinDashValues } from "./core/dash-values.js";
import { describeError, mcError } from "./core/errors.js";
import { exitCodes } from "./core/exit-codes.js";
import { splitCommandLine } from "./help/command-line.js";
import { createCommandTree } from "./help/command-tree.js";
import { autocompletionFlag, globalFlagOf, helpFlag, versionFlag } from "./help/global-flags.js";
import { currentPlatform, homeDir } from "./config/home-dir.js";
import { asksForHelp, describeCommand, type CommandHelp } from "./help/command-help.js";
import { McCli } from "./help/mc-cli.js";
import { renderAppHelp, renderGroupHelp } from "./help/render-help.js";
import { renderCommandHelp, renderCommandUsage } from "./help/render-command-help.js";
import { createOutput } from "./core/output.js";
import { suggest } from "./core/suggest.js";
import { syntaxErrorLine } from "@mc/shared/syntax-error";
import { parseBool } from "./util/parse-bool.js";
import { versionText } from "./core/version.js";

// Before anything can write: a closed stdout ends mc quietly with 141, a failing one in one line.
endOnClosedPipe({
  failureLine: (err) => {
    const d = describeError(mcError("Unable to write to standard output.", err));
    return `mc: <ERROR> ${d.message} ${d.causeMessage}`;
  },
});

const tree = createCommandTree(registry);

const args = joinDashValues(process.argv.slice(2));
const json = args.includes("--json") || parseBool(process.env["MC_JSON"]);

/** A fatal error before any command runs, with "Did you mean" hints under the text form. */
function fail(message: string, hints: readonly string[] = []): number {
  createOutput({ json, quiet: true, debug: false, stdout: process.stdout, stderr: process.stderr }).error(mcError(message), "fatal");
  if (!json && hints.length > 0) process.stderr.write(`Did you mean one of these?\n${hints.map((h) => `\t‘${h}’\n`).join("")}`);
  return exitCodes.fatal;
}

const notRecognized = (word: string): string => `\`${word}\` is not a recognized command. Get help using \`--help\` flag.`;

/**
 * The parser holds only the commands at the resolved path: clipanion builds
 * one state machine over every registered command, and over all ~100 of them
 * that alone cost most of a second of CPU on every run.
 */
function createCli(path: readonly string[]): Cli {
  const cli = new McCli({ binaryName: "mc", binaryLabel: "mc", enableColors: false });
  const at = (p: readonly string[]): boolean => p.length === path.length && p.every((word, i) => path[i] === word);
  for (const entry of registry) if (entry.paths.some(at)) cli.register(entry.load());
  cli.register(Builtins.HelpCommand);
  return cli;
}

/** The class of the command at `path`, loaded (only it: see command-registry.ts). */
const commandAt = (path: readonly string[]): CommandClass<BaseContext> | undefined =>
  registry.find((c) => c.paths.some((p) => p.length === path.length && p.every((word, i) => path[i] === word)))?.load();

function runCommand(path: readonly string[], argv: string[]): Promise<number> {
  const known = commandAt(path);
  // Describing a command makes an instance (every option): done when the line can ask for help, or for an error.
  let described: CommandHelp | undefined;
  const help = (): CommandHelp | undefined => (described ??= known === undefined ? undefined : describeCommand(known));
  const rest = argv.slice(path.length);
  if (rest.includes("-h") || rest.includes("--help")) {
    const asked = help();
    if (asked !== undefined && asksForHelp(asked, rest)) {
      process.stdout.write(renderCommandHelp(asked));
      return Promise.resolve(exitCodes.ok);
    }
  }
  const cli = createCli(path);
  let command;
  try {
    command = cli.process(argv);
  } catch (err) {
    const text = syntaxErrorLine(err);
    const usage = help();
    process.stderr.write(`mc: <ERROR> Invalid command usage, ${text}\n${usage ? `\n${renderCommandUsage(usage)}` : ""}`);
    return Promise.resolve(exitCodes.fatal);
  }
  // Whatever else clipanion would answer with its own help command gets ours.
  const usage = known !== undefined && !(command instanceof known) ? help() : undefined;
  if (usage !== undefined) {
    process.stdout.write(renderCommandHelp(usage));
    return Promise.resolve(exitCodes.ok);
  }
  // stdin as a getter: node sets up the stream (a pipe, a file, a TTY) only for a command that reads it
  // (clipanion keeps getters when it merges contexts: cli/scripts/slim-deps.mjs).
  return cli.run(command, {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
  });
}

/** `mc help [COMMAND...]`, as urfave/cli's help command: the app's, a group's or a command's help. */
function showHelp(words: readonly string[]): number {
  const found = words.length === 0 ? undefined : tree.resolve(words);
  const known = found?.kind === "command" ? commandAt(found.path) : undefined;
  if (found?.kind === "group" && found.next === undefined) process.stdout.write(renderGroupHelp(tree, found.path));
  else if (known !== undefined) process.stdout.write(renderCommandHelp(describeCommand(known)));
  else process.stdout.write(renderAppHelp(tree));
  return exitCodes.ok;
}

/**
 * How long completion waits for a server's listing: a slow server costs a TAB
 * this much, then nothing is offered. MC_COMPLETION_TIMEOUT_MS changes it
 * (a slow link, or a loaded test machine).
 */
function completionDeadlineMs(): number {
  const ms = Number(process.env["MC_COMPLETION_TIMEOUT_MS"]);
  return Number.isFinite(ms) && ms > 0 ? ms : 3000;
}

/**
 * `mc __complete WORD... CURRENT` (hidden; the shell scripts call it): the
 * candidates, one a line. It never fails loudly: whatever goes wrong, the
 * shell gets fewer candidates and status 0. It exits at once, not waiting
 * for the server's keep-alive connections to close.
 */
async function complete(words: readonly string[]): Promise<number> {
  let candidates: string[] = [];
  try {
    const command = (path: readonly string[]): ReturnType<typeof describeCommand> | undefined => {
      const known = commandAt(path);
      return known === undefined ? undefined : describeCommand(known);
    };
    // Loaded here, not at the top: completion (and its crypto and S3 imports) is no part of a command's start-up.
    const [{ completeWords }, { createCompletionSources }] = await Promise.all([import("./completion/complete.js"), import("./completion/completion-sources.js")]);
    candidates = await completeWords(words, createCompletionSources({ tree, command, words, env: process.env, deadlineMs: completionDeadlineMs() }));
  } catch {
    candidates = [];
  }
  await new Promise<void>((resolve) => process.stdout.write(candidates.map((c) => `${c}\n`).join(""), () => resolve()));
  process.exit(exitCodes.ok);
}

/** `mc --autocompletion`: installs the completion scripts and says in one line what it did. */
async function autocompletion(): Promise<number> {
  const output = createOutput({ json, quiet: true, debug: false, stdout: process.stdout, stderr: process.stderr });
  try {
    const home = homeDir(currentPlatform());
    const { installCompletion, installSummary } = await import("./completion/install.js");
    const installed = await installCompletion({ home, env: process.env });
    output.result({ status: installed.length > 0 ? "success" : "error", installed }, installSummary(installed, home));
    return installed.length > 0 ? exitCodes.ok : exitCodes.fatal;
  } catch (err) {
    output.error(mcError("Unable to install shell completion.", err), "fatal");
    return exitCodes.fatal;
  }
}

async function main(): Promise<number> {
  if (process.argv[2] === "__complete") return complete(process.argv.slice(3));
  const { leading, words } = splitCommandLine(args);
  const unknownFlag = leading.find((f) => globalFlagOf(f) === undefined);
  if (unknownFlag !== undefined) return fail(`Invalid command usage, Unsupported option name ("${unknownFlag.split("=")[0] ?? unknownFlag}").`);
  // urfave/cli: the app's --help and --version win over any command after them.
  if (leading.some((f) => helpFlag.names.includes(f))) return showHelp([]);
  if (words[0]?.word === "help") return showHelp(words.slice(1).map((w) => w.word));
  if (leading.some((f) => autocompletionFlag.names.includes(f))) return autocompletion();
  if (leading.some((f) => versionFlag.names.includes(f))) {
    process.stdout.write(`${versionText()}\n`);
    return exitCodes.ok;
  }
  if (words.length === 0) {
    process.stderr.write(renderAppHelp(tree));
    return exitCodes.fatal;
  }
  const found = tree.resolve(words.map((w) => w.word));
  if (found.kind === "unknown") return fail(notRecognized(found.word), suggest(found.word, tree.entries([]).flatMap((e) => e.names)));
  if (found.kind === "group") {
    // Upstream's commandNotFound: no subcommand shows the group's help (exit 0), a wrong one is an error.
    if (found.next === undefined) {
      process.stdout.write(renderGroupHelp(tree, found.path));
      return exitCodes.ok;
    }
    return fail(notRecognized(found.next), suggest(found.next, tree.entries(found.path).flatMap((e) => e.names)));
  }
  // clipanion wants the command path first; urfave/cli lets flags come anywhere.
  const pathIndexes = new Set(words.slice(0, found.path.length).map((w) => w.index));
  return runCommand(found.path, [...found.path, ...args.filter((_, i) => !pathIndexes.has(i))]);
}

// No top-level await: the bundle is CommonJS so bin/mc.js can load it with a V8 code cache.
void main().then((code) => {
  process.exitCode = code;
});
// When the event loop has nothing left (every write done), exit at once: a natural end goes on to
// free the whole heap and environment first, tens of milliseconds here for nothing. Not when
// something else listens: it may still have work to schedule.
process.once("beforeExit", () => {
  if (process.listenerCount("beforeExit") === 0) process.exit();
});
