// Entry point of `mc`: global --version/--help, unknown-command and usage
// errors as the contract prints them, then the clipanion command.
import { Builtins, Cli } from "clipanion";
import { commands } from "./commands/index.js";
import { joinDashValues } from "./dash-values.js";
import { exitCodes } from "./exit-codes.js";
import { suggest } from "./suggest.js";
import { versionText } from "./version.js";

const cli = new Cli({ binaryName: "mc", binaryLabel: "mc", enableColors: false });
for (const command of commands) cli.register(command);
cli.register(Builtins.HelpCommand);

const args = joinDashValues(process.argv.slice(2));
const first = args[0];
const paths = commands.flatMap((c) => c.paths ?? []);
const topLevel = new Set(paths.map((p) => p[0] ?? ""));
/** Global flags that take a value: their value is not the command name. */
const valueFlags = new Set(["-C", "--config-dir", "--resolve", "-H", "--custom-header", "--limit-upload", "--limit-download"]);

/**
 * urfave/cli accepts global flags before the command (`mc -C dir ls`);
 * clipanion wants the command path first, so move it there.
 */
function reorder(argv: readonly string[]): { name: string | undefined; argv: string[] } {
  let i = 0;
  while (i < argv.length && (argv[i] ?? "").startsWith("-")) i += valueFlags.has(argv[i] ?? "") ? 2 : 1;
  const name = argv[i];
  if (name === undefined) return { name, argv: [...argv] };
  let length = 1;
  for (const path of paths) {
    if (path.length > length && path.every((word, j) => argv[i + j] === word)) length = path.length;
  }
  return { name, argv: [...argv.slice(i, i + length), ...argv.slice(0, i), ...argv.slice(i + length)] };
}

async function main(): Promise<number> {
  if (first === undefined) {
    process.stderr.write(cli.usage(null));
    return exitCodes.fatal;
  }
  if (first === "--version" || first === "-v") {
    process.stdout.write(`${versionText()}\n`);
    return exitCodes.ok;
  }
  if (first === "-h" || first === "--help" || first === "help") {
    process.stdout.write(cli.usage(null));
    return exitCodes.ok;
  }
  const { name = first, argv } = reorder(args);
  if (!topLevel.has(name)) {
    const hints = suggest(name, [...topLevel]);
    const json = args.includes("--json");
    const message = `\`${name}\` is not a recognized command. Get help using \`--help\` flag.`;
    if (json) process.stdout.write(`${JSON.stringify({ status: "error", error: { message, cause: { message: "", error: {} }, type: "fatal" } })}\n`);
    else process.stderr.write(`mc: <ERROR> ${message}\n${hints.length ? `Did you mean one of these?\n${hints.map((h) => `\t‘${h}’\n`).join("")}` : ""}`);
    return exitCodes.fatal;
  }
  let command;
  try {
    command = cli.process(argv);
  } catch (err) {
    const text = err instanceof Error ? err.message.split("\n")[0] : String(err);
    const known = commands.filter((c) => (c.paths ?? []).some((p) => p.every((word, i) => argv[i] === word)));
    // A command group without its subcommand (`mc admin kms key`): list the group.
    const words: string[] = [];
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i] ?? "";
      if (valueFlags.has(a)) i++;
      else if (!a.startsWith("-")) words.push(a);
    }
    const group = known.length ? [] : paths.filter((p) => p.length > words.length && words.every((w, i) => p[i] === w));
    const usage = known[0] ? `\n${cli.usage(known[0], { detailed: false })}` : group.map((p) => `\tmc ${p.join(" ")}\n`).join("");
    process.stderr.write(`mc: <ERROR> Invalid command usage, ${text}\n${usage}`);
    return exitCodes.fatal;
  }
  return cli.run(command, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
}

// No top-level await: the bundle is CommonJS so bin/mc.js can load it with a V8 code cache.
void main().then((code) => {
  process.exitCode = code;
});
