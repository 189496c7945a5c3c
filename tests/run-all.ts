// The test command (`npm test`): runs every uvu suite of every workspace, each
// group in a child process of its own (a crashed or hung group cannot take
// the others down), and ends with one summary line. Groups run two at a time
// (TEST_JOBS), except those marked `// run-all: alone`, which run first, one by one;
// groups marked `// run-all: long` take the pool first (longest first keeps
// the run from ending on one long group while the other worker idles).
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { uvuArgs } from "./harness/uvu-command.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const groupTimeoutMs = 15 * 60 * 1000;

interface Group {
  readonly label: string;
  readonly dir: string;
  readonly pattern: string;
}

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

/** Unit tests per workspace; integration tests per file, for isolation. */
function groups(filters: readonly string[]): Group[] {
  const out: Group[] = [];
  const workspaces = ["services/shared", "services/consensus", "services/kms", "services/releases", "gateway", "app", "cli", "wasm"];
  const hasTests = (dir: string): boolean =>
    existsSync(dir) &&
    readdirSync(dir, { withFileTypes: true }).some((e) => (e.isDirectory() ? hasTests(join(dir, e.name)) : e.name.endsWith(".test.ts")));
  for (const ws of workspaces) {
    if (hasTests(join(root, ws, "src"))) out.push({ label: ws, dir: join(ws, "src"), pattern: "\\.test\\.ts$" });
  }
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const rel = join(dir, name);
      if (["node_modules", "gen", "output", "vectors", "proto", "fixtures", "harness"].includes(name)) continue;
      if (statSync(join(root, rel)).isDirectory()) walk(rel);
      else if (name.endsWith(".test.ts")) out.push({ label: rel, dir, pattern: `^${name.replace(/\./g, "\\.")}$` });
    }
  };
  walk("tests");
  // Several filters select every group that matches any of them.
  return filters.length > 0 ? out.filter((g) => filters.some((f) => g.label.includes(f))) : out;
}

function parse(output: string): Tally | undefined {
  const plain = output.replace(/\u001b\[[0-9;]*m/g, "");
  const total = /Total:\s+(\d+)/.exec(plain);
  const passed = /Passed:\s+(\d+)/.exec(plain);
  const skipped = /Skipped:\s+(\d+)/.exec(plain);
  if (!total || !passed) return undefined;
  return { passed: Number(passed[1]), failed: Number(total[1]) - Number(passed[1]), skipped: Number(skipped?.[1] ?? 0) };
}

/** The `// run-all: WORD` marker in a test file's first lines. */
function marked(group: Group, word: "alone" | "long"): boolean {
  if (!group.label.startsWith("tests/")) return false;
  return new RegExp(`^\\/\\/ run-all: ${word}\\b`, "m").test(readFileSync(join(root, group.label), "utf8").slice(0, 4096));
}

/** A group marked `// run-all: alone` measures timing (elections, failover, 2 s visibility): no other group runs beside it. */
const runsAlone = (group: Group): boolean => marked(group, "alone");

interface Finished {
  readonly tally: Tally;
  readonly seconds: number;
}

/**
 * Runs one group; alone, its output streams as it comes; beside others, it is
 * held and printed whole when the group ends, so groups never interleave.
 */
function runGroup(group: Group, stream: boolean): Promise<Finished> {
  return new Promise((resolve) => {
    const started = Date.now();
    const header = `\n=== ${group.label}\n`;
    if (stream) process.stdout.write(header);
    const child = spawn(process.execPath, uvuArgs(root, group.dir, group.pattern), {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "test", ...(process.stdout.isTTY ? {} : { NO_COLOR: "1", FORCE_COLOR: "0" }) },
    });
    let output = "";
    const relay = (chunk: Buffer, to: NodeJS.WriteStream): void => {
      output += chunk.toString();
      if (stream) to.write(chunk);
    };
    child.stdout.on("data", (c: Buffer) => relay(c, process.stdout));
    child.stderr.on("data", (c: Buffer) => relay(c, process.stderr));
    const timer = setTimeout(() => {
      output += `\n${group.label}: still running after ${groupTimeoutMs / 60000} minutes, killed\n`;
      if (stream) process.stderr.write(`\n${group.label}: still running after ${groupTimeoutMs / 60000} minutes, killed\n`);
      child.kill("SIGKILL");
    }, groupTimeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      const tally = parse(output) ?? { passed: 0, failed: 0, skipped: 0 };
      let tail = "";
      if (code !== 0 && tally.failed === 0) {
        tail = `\n${group.label}: exited with ${code ?? "a signal"} outside any test: counted as one failure\n`;
        tally.failed += 1;
      }
      const seconds = (Date.now() - started) / 1000;
      if (!stream) process.stdout.write(header + output);
      process.stdout.write(`${tail}--- ${group.label}: ${seconds.toFixed(1)} s\n`);
      resolve({ tally, seconds });
    });
  });
}

// Two groups at a time by default (the suite is mostly waiting on real peers);
// TEST_JOBS=1 runs everything one after another.
const jobs = Math.max(1, Number(process.env["TEST_JOBS"] ?? Math.min(2, availableParallelism())));
// Build mc's bundle once (mc builds it on its first run when a source is newer),
// then tell every mc the suite starts that it is fresh: walking the source
// trees is ~20 ms of each of the thousands of mc processes the suite runs.
await new Promise<void>((resolve) => spawn(process.execPath, [join(root, "cli", "bin", "mc.js"), "--version"], { stdio: "ignore" }).once("close", () => resolve()));
process.env["MC_BUNDLE_FRESH"] = "1";
// The same for the KMS server's bundle, which every kms server of the suite runs.
await new Promise<void>((resolve) => spawn(process.execPath, [join(root, "services", "kms", "bin", "kms.js"), "--help"], { stdio: "ignore" }).once("close", () => resolve()));
process.env["KMS_BUNDLE_FRESH"] = "1";

const filters = process.argv.slice(2);
const all: Tally = { passed: 0, failed: 0, skipped: 0 };
const failedGroups: string[] = [];
const record = (group: Group, f: Finished): void => {
  all.passed += f.tally.passed;
  all.failed += f.tally.failed;
  all.skipped += f.tally.skipped;
  if (f.tally.failed > 0) failedGroups.push(group.label);
};
const selected = groups(filters);
const alone = selected.filter(runsAlone);
const rest = selected.filter((g) => !alone.includes(g));
const shared = [...rest.filter((g) => marked(g, "long")), ...rest.filter((g) => !marked(g, "long"))];
// Timing-sensitive groups first, each on a quiet machine; then the rest in a pool.
for (const group of alone) record(group, await runGroup(group, true));
let next = 0;
const worker = async (): Promise<void> => {
  while (next < shared.length) {
    const group = shared[next++] as Group;
    record(group, await runGroup(group, jobs === 1));
  }
};
await Promise.all(Array.from({ length: Math.min(jobs, shared.length) }, worker));
if (failedGroups.length > 0) process.stdout.write(`\nfailing groups: ${failedGroups.join(", ")}\n`);
const skipped = all.skipped > 0 ? `, ${all.skipped} skipped` : "";
process.stdout.write(`\n${all.passed} passed, ${all.failed} failed${skipped}\n`);
process.exitCode = all.failed > 0 || all.passed === 0 ? 1 : 0;
