// Issue 23's start-up: cli/scripts/slim-deps.mjs rewrites parts of mc's
// dependencies at bundle time. Each rewrite must mean what the original
// meant: clipanion's simplified state machines are the same for every mc
// command, a lazy builtin loads its module on first use and not before, the
// context's getters survive clipanion's merges, and the lodash stand-in refuses
// importers it cannot read.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual, promisify } from "node:util";
import { build } from "esbuild";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Builtins, Cli, type CommandClass } from "clipanion";
import { commands } from "../../cli/src/commands/index.js";
import { lodashFunctionsOf, slimDeps } from "../../cli/scripts/slim-deps.mjs";
import { repoRoot } from "./mc-runner.js";

const requireHere = createRequire(import.meta.url);

/** `source` bundled with slim-deps and run as a CommonJS module; its exports. */
async function bundled<T>(source: string): Promise<T> {
  const out = await build({ stdin: { contents: source, resolveDir: join(repoRoot, "cli"), loader: "js" }, bundle: true, platform: "node", format: "cjs", write: false, plugins: [slimDeps], logLevel: "silent" });
  const module = { exports: {} as T };
  new Function("module", "exports", "require", out.outputFiles[0]?.text ?? "")(module, module.exports, requireHere);
  return module.exports;
}

interface Machine {
  nodes: unknown[];
}
interface CoreModule {
  CliBuilder: new () => { command(): unknown; builders: Array<{ compile(): { machine: Machine } }> };
  makeAnyOfMachine(machines: Machine[]): Machine;
  simplifyMachine(machine: Machine): void;
}

const test = suite("slim-deps: mc's dependencies as bundled for start-up");

test("clipanion's state machine of every mc command (with the help command) simplifies to the same machine", async () => {
  const original = requireHere("clipanion/lib/core.js") as CoreModule;
  const patched = await bundled<CoreModule>('module.exports = require("clipanion/lib/core.js");');
  assert.is.not(patched.simplifyMachine.toString(), original.simplifyMachine.toString(), "the bundle carries the replacement");
  let states = 0;
  for (const command of commands as unknown as CommandClass[]) {
    const cli = new Cli({ binaryName: "mc" });
    cli.register(command);
    cli.register(Builtins.HelpCommand);
    const builders = (cli as unknown as { builder: { builders: Array<{ compile(): { machine: Machine } }> } }).builder.builders;
    const machine = original.makeAnyOfMachine(builders.map((b) => b.compile().machine));
    // structuredClone keeps shared references: clipanion compares transition tests by identity.
    const a = structuredClone(machine);
    const b = structuredClone(machine);
    original.simplifyMachine(a);
    patched.simplifyMachine(b);
    assert.ok(isDeepStrictEqual(a, b), `${command.paths?.[0]?.join(" ")}: the simplified machines differ`);
    states += a.nodes.length;
  }
  assert.ok(commands.length > 100 && states > commands.length * 10, `${commands.length} commands, ${states} states`);
  // mc's machines never merge a transition a state has already: one where shortcuts bring duplicates, kept once.
  const optionTest = ["isOption", "-x"];
  const transition = (to: number): { to: number; reducer: undefined } => ({ to, reducer: undefined });
  const node = (statics: Record<string, unknown[]>, dynamics: unknown[], shortcuts: unknown[]): unknown => ({ statics, dynamics, shortcuts });
  const small = {
    nodes: [
      node({}, [], [transition(2)]),
      node({}, [], []),
      node({ a: [transition(3)] }, [[optionTest, transition(3)]], [transition(3), transition(4)]),
      node({ a: [transition(3), transition(5)], b: [transition(5)] }, [[optionTest, transition(3)], ["isNegated", transition(5)]], [transition(4)]),
      node({ b: [transition(5)] }, [[optionTest, transition(3)], [optionTest, transition(5)]], []),
      node({}, [], []),
    ],
  };
  const a = structuredClone(small);
  const b = structuredClone(small);
  original.simplifyMachine(a);
  patched.simplifyMachine(b);
  assert.equal(b, a);
  assert.is((a.nodes[2] as { dynamics: unknown[] }).dynamics.length, 3, "the duplicates are dropped");
});

test("a lazy builtin loads its module on the first use of an export, not at import", async () => {
  // In a process of its own: the build itself looks at the module's exports.
  const program = await build({
    stdin: {
      contents: [
        'const loaded = () => process.moduleLoadList.includes("NativeModule http2");',
        "const before = loaded();",
        'const http2 = require("node:http2");',
        "const imported = loaded();",
        "const value = http2.constants.NGHTTP2_SESSION_SERVER;",
        'process.stdout.write(JSON.stringify({ before, imported, value, used: loaded() }));',
      ].join("\n"),
      resolveDir: join(repoRoot, "cli"),
      loader: "js",
    },
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    plugins: [slimDeps],
    logLevel: "silent",
  });
  const dir = await mkdtemp(join(tmpdir(), "mc-slim-deps-"));
  try {
    await writeFile(join(dir, "lazy.cjs"), program.outputFiles[0]?.text ?? "");
    const { stdout } = await promisify(execFile)(process.execPath, [join(dir, "lazy.cjs")]);
    const seen = JSON.parse(stdout) as Record<string, unknown>;
    assert.equal({ before: seen["before"], imported: seen["imported"], value: seen["value"], used: seen["used"] }, { before: false, imported: false, value: 0, used: true });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("clipanion keeps the context's getters: stdin is read by a command that uses it, not by every run", async () => {
  const { Cli: PatchedCli, Command } = await bundled<typeof import("clipanion")>('module.exports = require("clipanion");');
  let reads = 0;
  const seen: boolean[] = [];
  class Probe extends Command {
    static override paths = [["probe"]];
    override async execute(): Promise<number> {
      seen.push(reads === 0);
      seen.push(this.context.stdin === process.stdin && reads === 1);
      return 0;
    }
  }
  const cli = new PatchedCli({ binaryName: "mc", enableColors: false });
  cli.register(Probe);
  const context = {
    get stdin() {
      reads++;
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
  };
  assert.is(await cli.run(cli.process(["probe"], context), context), 0);
  assert.equal(seen, [true, true]);
});

test("the lodash stand-in takes the functions an importer names and refuses any other use of `_`", () => {
  assert.equal(lodashFunctionsOf("import _ from 'lodash';\nconst a = _.isEmpty(x) && _.pick(y, ['_']);\nconst [_, b] = pair; // _ here\n", "ok.mjs"), ["isEmpty", "pick"]);
  assert.throws(() => lodashFunctionsOf("import _ from 'lodash';\nconst a = _(list).map(f);\n", "chain.mjs"), /other than as `_\.name`/);
  assert.throws(() => lodashFunctionsOf("import { pick } from 'lodash';\n", "named.mjs"), /other than as `import _ from 'lodash'`/);
});

test.run();
