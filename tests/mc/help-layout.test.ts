// Every command's help in upstream's layout (contracts/mc.md §1, issue 22):
// the registry is walked in process with the renderer main.ts uses (so a
// command added later is checked too, at no spawn cost), and a few real runs
// prove that `mc X --help`, `mc help X`, `mc GROUP --help` and a usage error
// print exactly that text.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { commands } from "../../cli/src/commands/index.js";
import { describeCommand, type CommandHelp } from "../../cli/src/help/command-help.js";
import { createCommandTree } from "../../cli/src/help/command-tree.js";
import { globalFlags, helpFlag } from "../../cli/src/help/global-flags.js";
import { renderCommandHelp, renderCommandUsage } from "../../cli/src/help/render-command-help.js";
import { renderGroupHelp } from "../../cli/src/help/render-help.js";
import { mcInvocations } from "./help-words.js";
import { runMc } from "./mc-runner.js";

const tree = createCommandTree(commands);
const helps = commands.map((c) => describeCommand(c));
const byPath = new Map(helps.flatMap((h) => [h.path, ...h.aliases].map((p) => [p.join(" "), h] as const)));
const globalNames = new Set([...globalFlags, helpFlag].flatMap((f) => f.names));
const name = (h: CommandHelp): string => `mc ${h.path.join(" ")}`;
/** The default config folder is named after the program that runs (`~/.mc`; this test runs under uvu's `.bin`). */
const sameDefaults = (text: string): string => text.replace(/\(default: "[^"]*"\) \[\$MC_CONFIG_DIR\]/, "(default: DIR) [$MC_CONFIG_DIR]");

/** The text of one section (`FLAGS:` … up to the next blank line). */
function section(text: string, title: string): string {
  return text.split(`\n\n${title}:\n`)[1]?.split("\n\n")[0] ?? "";
}

/** What is wrong with one example's command line: a run of another command only, or a flag its command does not have. */
function exampleProblems(h: CommandHelp, line: string): string[] {
  const problems: string[] = [];
  let runsIt = false;
  for (const args of mcInvocations(line)) {
    const words = args.filter((a) => !a.startsWith("-"));
    const found = tree.resolve(words);
    const target = found.kind === "command" ? byPath.get(found.path.join(" ")) : undefined;
    if (target === undefined) {
      problems.push(`runs no command of the registry: mc ${args.join(" ")}`);
      continue;
    }
    if (target === h) runsIt = true;
    const own = new Map(target.flags.flatMap((f) => f.names.map((n) => [n, f.value] as const)));
    const takesValue = (flag: string): boolean => own.get(flag) ?? globalFlags.find((g) => g.names.includes(flag))?.value ?? false;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] ?? "";
      if (arg === "--") break;
      if (!arg.startsWith("-") || arg === "-") continue;
      const flag = arg.split("=")[0] ?? arg;
      if (!own.has(flag) && !globalNames.has(flag)) problems.push(`${name(target)} has no flag ${flag}`);
      else if (!arg.includes("=") && takesValue(flag)) i++;
    }
  }
  if (!runsIt) problems.push(`does not run ${name(h)}: ${line}`);
  return problems;
}

const layout = suite("help layout");

layout("should show NAME, USAGE with argument names, FLAGS without global flags, two or more EXAMPLES and GLOBAL FLAGS once, for every command of the registry", () => {
  assert.ok(helps.length >= 150, `only ${helps.length} commands in the registry`);
  const problems: string[] = [];
  for (const h of helps) {
    const text = renderCommandHelp(h);
    const say = (what: string): number => problems.push(`${name(h)}: ${what}`);
    if (!text.startsWith(`NAME:\n  ${name(h)} - `) || h.description.trim() === "") say("no NAME line with a description");
    const usage = section(`\n${text}`, "USAGE");
    if (usage !== `  ${[name(h), "[FLAGS]", ...h.arguments].join(" ")}`) say(`USAGE is ${JSON.stringify(usage)}`);
    // Argument names say what goes there: no placeholder clipanion made up, nothing generic.
    for (const arg of h.arguments) if (/^\[?(ARGS?|ARG\.\.\.)\]?$/i.test(arg) || !/[A-Z]|\|/.test(arg)) say(`argument name ${JSON.stringify(arg)} says nothing`);
    const flags = section(text, "FLAGS").split("\n");
    if (!/^ {2}--help, -h +show help$/.test(flags.at(-1) ?? "")) say("FLAGS do not end with --help, -h");
    for (const row of flags) if (/^ {2}(--config-dir|--json|--quiet|--debug|--insecure|--no-color)(?=[ ,])/.test(row)) say(`a global flag among its FLAGS: ${row.trim()}`);
    // urfave/cli: a long name with two dashes, a one-letter name (`-n value`, upstream's scanner status) with one.
    for (const row of flags) if (!/^ {2}(--[\w-]+|-\w)( value)?(, --?[\w-]+( value)?)* {2,}\S|^ {2}--help, -h +show help$/.test(row)) say(`FLAGS row not as urfave/cli prints it: ${JSON.stringify(row)}`);
    if (text.split("--config-dir value").length !== 2) say("the global flags are not listed exactly once");
    if (!section(text, "GLOBAL FLAGS").includes("--config-dir value, -C value")) say("no GLOBAL FLAGS");
    if (text.includes("#0") || text.includes("$0")) say("a placeholder (#0 or $0) in the help");
    if (h.examples.length < 2) say(`${h.examples.length} example(s), at least 2 wanted`);
    // Examples are apart by blank lines: the section runs up to GLOBAL FLAGS.
    const examples = text.split("\n\nEXAMPLES:\n")[1]?.split("\n\nGLOBAL FLAGS:\n")[0] ?? "";
    h.examples.forEach(([label, line], i) => {
      const number = `${i + 1}. `;
      if (!examples.includes(`  ${number}${label.split("\n")[0] ?? ""}\n${" ".repeat(2 + number.length)}$ ${line.split("\n")[0] ?? ""}`)) say(`example ${i + 1} is not numbered with its command under it`);
      for (const p of exampleProblems(h, line)) say(`example ${i + 1} ${p}`);
    });
  }
  assert.equal(problems, []);
});

layout("should print a usage error's USAGE and FLAGS from the same definition, without placeholders", () => {
  for (const h of helps) {
    const text = renderCommandUsage(h);
    assert.ok(text.startsWith(`USAGE:\n  ${[name(h), "[FLAGS]", ...h.arguments].join(" ")}\n\nFLAGS:\n`), name(h));
    assert.not.ok(text.includes("#0"), name(h));
  }
});

layout("should show every group of the command tree with each subcommand on one line", () => {
  const groups = tree.groups();
  assert.ok(groups.length >= 20);
  for (const group of groups) {
    const text = renderGroupHelp(tree, group);
    assert.ok(text.startsWith(`NAME:\n  mc ${group.join(" ")} - ${tree.description(group)}\n\nUSAGE:\n  mc ${group.join(" ")} COMMAND [COMMAND FLAGS | -h] [ARGUMENTS...]\n\nCOMMANDS:\n`), group.join(" "));
    const block = section(text, "COMMANDS");
    for (const entry of tree.entries(group)) assert.match(block, new RegExp(`^  ${entry.names.join(", ")}  +\\S`, "m"), `${group.join(" ")}: ${entry.names.join(", ")}`);
    assert.not.ok(text.includes("#0"));
  }
});

layout.run();

// A few real runs: the dispatch in main.ts reaches the same renderer.
const wiring = suite("help wiring");
let cfg = "";

wiring.before(async () => {
  cfg = await mkdtemp(join(tmpdir(), "mc-help-layout-"));
});

wiring.after(async () => {
  await rm(cfg, { recursive: true, force: true });
});

wiring("should print the rendered help for mc X --help, mc X -h after other flags, and mc help X, exit 0", async () => {
  const cp = byPath.get("cp");
  const status = byPath.get("admin kms key status");
  assert.ok(cp && status);
  const [a, b, c] = await Promise.all([
    runMc(["-C", cfg, "cp", "--help"]),
    runMc(["admin", "kms", "key", "status", "--json", "-C", cfg, "mykms", "-h"]),
    runMc(["-C", cfg, "help", "cp"]),
  ]);
  for (const [r, h] of [[a, cp], [b, status], [c, cp]] as const) {
    assert.is(r.code, 0, r.stderr);
    assert.is(r.stderr, "");
    assert.is(sameDefaults(r.stdout), sameDefaults(renderCommandHelp(h)));
  }
  assert.match(a.stdout, /\nUSAGE:\n {2}mc cp \[FLAGS\] SOURCE \[SOURCE\.\.\.\] TARGET\n/);
  assert.match(a.stdout, /\n {2}--recursive, -r +\S.*\n/);
  assert.match(a.stdout, /\n {2}--rewind value +\S.*\n/);
  assert.match(a.stdout, /\nENVIRONMENT VARIABLES:\n {2}MC_ENC_KMS: /);
});

wiring("should answer a usage error with one line, the command's USAGE and FLAGS, exit 1; and a group's help", async () => {
  const [bad, unknownFlag, group] = await Promise.all([runMc(["-C", cfg, "-q", "cp", "only-one"]), runMc(["-C", cfg, "-q", "ls", "--no-such-flag"]), runMc(["-C", cfg, "ilm", "rule", "--help"])]);
  assert.is(bad.code, 1);
  assert.is(bad.stderr, `mc: <ERROR> Invalid command usage, cp needs SOURCE and TARGET.\n\n${renderCommandUsage(byPath.get("cp") as CommandHelp)}`);
  assert.is(unknownFlag.code, 1);
  assert.ok(unknownFlag.stderr.endsWith(`\n\n${renderCommandUsage(byPath.get("ls") as CommandHelp)}`), unknownFlag.stderr);
  assert.is(group.code, 0);
  assert.is(sameDefaults(group.stdout), sameDefaults(renderGroupHelp(tree, ["ilm", "rule"])));
});

wiring("should name the option that lacks its value, or is unknown, after positional arguments", async () => {
  // Before: "Command not found; did you mean one of:" and nothing after it, for any of these.
  const cases = [
    [["cp", "a", "b", "--limit-upload"], "Not enough arguments to option --limit-upload."],
    [["ls", "x/y", "--rewind"], "Not enough arguments to option --rewind."],
    [["alias", "set", "x", "http://h", "--api-key"], "Not enough arguments to option --api-key."],
    [["mirror", "a", "b", "--exclude"], "Not enough arguments to option --exclude."],
    [["cp", "a", "b", "--bogus"], 'Unsupported option name ("--bogus").'],
  ] as const;
  const runs = await Promise.all(cases.map(([args]) => runMc(["-C", cfg, ...args])));
  runs.forEach((r, i) => {
    const [args, reason] = cases[i] ?? [[], ""];
    assert.equal([r.code, r.stderr.split("\n")[0]], [1, `mc: <ERROR> Invalid command usage, ${reason}`], args.join(" "));
  });
});

wiring.run();
