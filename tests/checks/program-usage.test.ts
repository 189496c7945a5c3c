// The programs as a user starts them (their bin, `npm run cluster`): a wrong
// flag is one line `<program>: …`, a blank line and the usage on stderr, and
// the program's usage status (1; the cluster launcher's is 2); --help, for the
// program and for a command, prints a usage on stdout and ends with 0.
// tests/checks/program-commands.test.ts covers every command in process.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { cleanEnv } from "../mc/mc-runner.js";
import { repoRoot } from "./run-tool.js";

interface Case {
  readonly program: string;
  readonly args: readonly string[];
  /** "help": usage on stdout, 0; a number: a wrong command line ending with that status. */
  readonly expect: "help" | number;
}

const starts: Record<string, readonly string[]> = {
  kms: [join(repoRoot, "services/kms/bin/kms.js")],
  releases: [join(repoRoot, "services/releases/bin/releases.js")],
  gateway: [join(repoRoot, "app/bin/gateway.js")],
  cluster: ["--import", "tsx", join(repoRoot, "scripts/cluster/cli.ts")],
};

const cases: readonly Case[] = [
  ...Object.keys(starts).flatMap((program): Case[] => [
    { program, args: ["--help"], expect: "help" },
    { program, args: ["--no-such-flag"], expect: program === "cluster" ? 2 : 1 },
  ]),
  { program: "kms", args: ["server", "--help"], expect: "help" },
  { program: "kms", args: ["hsm", "new", "--no-such-flag"], expect: 1 },
  { program: "cluster", args: ["up", "--help"], expect: "help" },
];

let work = "";

function run(c: Case): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // A state folder of its own: a launcher that ran anyway would find nothing of a real cluster.
    const env = cleanEnv({ MC_CLUSTER_DIR: join(work, "cluster"), DATA_DIR: join(work, "data"), NATS_URL: undefined, KMS_API_KEY: undefined });
    const child = spawn(process.execPath, [...(starts[c.program] ?? []), ...c.args], { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    // A program that started a server after all fails its case rather than the run.
    const timer = setTimeout(() => child.kill("SIGKILL"), 60000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() });
    });
  });
}

const test = suite("program usage");

test.before(async () => {
  work = await mkdtemp(join(tmpdir(), "program-usage-"));
});

test.after(async () => {
  await rm(work, { recursive: true, force: true });
});

test("should answer --help with 0 and a wrong flag with one line, the usage and the usage status", async () => {
  const failures: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const c = cases[next++] as Case;
      const r = await run(c);
      const what = `${c.program} ${c.args.join(" ")}`;
      if (c.expect === "help") {
        if (r.code !== 0 || r.stderr !== "" || !r.stdout.startsWith("Usage: ")) failures.push(`${what}: exit ${r.code}, stderr ${JSON.stringify(r.stderr.slice(0, 200))}`);
        continue;
      }
      const [line = "", ...usage] = r.stderr.split("\n\n");
      const oneLine = !line.includes("\n") && line.startsWith(`${c.program}: `) && line.includes("--no-such-flag");
      if (r.code !== c.expect || !oneLine || !usage.join("\n\n").startsWith("Usage: ")) {
        failures.push(`${what}: exit ${r.code} (want ${c.expect}), stderr ${JSON.stringify(r.stderr.slice(0, 200))}`);
      }
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  assert.equal(failures.sort(), []);
});

test.run();
