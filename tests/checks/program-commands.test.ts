// The four programs of the services (kms, releases, gateway, the cluster
// launcher) share one argument parser (@mc/shared/program); this runs each
// program's command line in process, for every command it has: `--help`
// prints a usage on stdout and ends with 0; a wrong flag is one line
// `<program>: Unknown option '…'`, a blank line and the usage on stderr, and
// ends with the program's usage status (1; the launcher's is 2). No command
// runs: both are answered before anything starts.
import { Writable } from "node:stream";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { runProgram, type Program } from "../../services/shared/src/process/program-cli.js";
import { kmsProgram } from "../../services/kms/src/cli/program.js";
import { releasesProgram } from "../../services/releases/src/cli/program.js";
import { gatewayProgram } from "../../gateway/src/config.js";
import { clusterProgram } from "../../scripts/cluster/program.js";

const programs: readonly Program[] = [kmsProgram, releasesProgram, gatewayProgram, clusterProgram];

interface Answer {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function sink(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString() };
}

async function answer(program: Program, argv: readonly string[]): Promise<Answer> {
  const out = sink();
  const err = sink();
  const code = await runProgram(program, argv, { stdout: out.stream, stderr: err.stream });
  return { code, stdout: out.text(), stderr: err.text() };
}

/** Every command path of a program ([] for a program without command words). */
const pathsOf = (program: Program): string[][] => program.commands.flatMap((c) => c.paths ?? [[]]);

const test = suite("every program's command line");

test("should answer --help and -h with a usage on stdout and 0, for the program and every command", async () => {
  for (const program of programs) {
    for (const path of [[], ...pathsOf(program)]) {
      for (const flag of ["--help", "-h"]) {
        const r = await answer(program, [...path, flag]);
        const what = `${program.name} ${[...path, flag].join(" ")}`;
        assert.is(r.code, 0, what);
        assert.is(r.stderr, "", what);
        assert.ok(r.stdout.startsWith("Usage: "), `${what}: ${r.stdout.slice(0, 80)}`);
      }
    }
  }
});

test("should give a command its own help when it has one", async () => {
  for (const program of programs) {
    for (const command of program.commands) {
      const path = command.paths?.[0] ?? [];
      if (command.help === undefined) continue;
      assert.is((await answer(program, [...path, "--help"])).stdout, command.help, `${program.name} ${path.join(" ")} --help`);
    }
  }
  assert.match((await answer(kmsProgram, ["cluster", "--help"])).stdout, /^Usage: kms cluster /);
});

test("should answer a wrong flag with one line, the usage and the usage status, for the program and every command", async () => {
  for (const program of programs) {
    const status = program.usageStatus ?? 1;
    for (const path of [[], ...pathsOf(program)]) {
      const r = await answer(program, [...path, "--no-such-flag"]);
      const what = `${program.name} ${[...path, "--no-such-flag"].join(" ")}`;
      assert.is(r.code, status, what);
      assert.is(r.stdout, "", what);
      const [line, ...usage] = r.stderr.split("\n\n");
      assert.is(line, `${program.name}: Unknown option '--no-such-flag'`, what);
      assert.ok(usage.join("\n\n").startsWith("Usage: "), `${what}: no usage after the line`);
    }
  }
});

test("should answer an unknown command and a missing value in one line with the usage status", async () => {
  for (const program of programs) {
    const status = program.usageStatus ?? 1;
    const unknown = await answer(program, ["no-such-command"]);
    assert.is(unknown.code, status, program.name);
    assert.match(unknown.stderr.split("\n")[0] ?? "", new RegExp(`^${program.name}: \\S.*no-such-command`));
  }
  const missing = await answer(kmsProgram, ["server", "--config"]);
  assert.is(missing.code, 1);
  assert.is(missing.stderr.split("\n")[0], "kms: Option '--config' needs a value");
  // After a positional argument too (before: "Wrong arguments for 'cluster add': 127.0.0.1:1 --api-key").
  const afterPositional = await answer(kmsProgram, ["cluster", "add", "127.0.0.1:1", "--api-key"]);
  assert.equal([afterPositional.code, afterPositional.stderr.split("\n")[0]], [1, "kms: Option '--api-key' needs a value"]);
});

test.run();
