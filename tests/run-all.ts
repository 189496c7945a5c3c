// The test command (`npm test`): runs every uvu suite of every workspace, each
// group in a child process of its own (a crashed or hung group cannot take
// the others down), streams their output, and ends with one summary line.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const uvu = join(root, "node_modules", "uvu", "bin.js");
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
function groups(filter: string | undefined): Group[] {
  const out: Group[] = [];
  const workspaces = ["services/shared", "services/consensus", "services/kms", "services/releases", "gateway", "cli", "wasm"];
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
  return filter ? out.filter((g) => g.label.includes(filter)) : out;
}

function parse(output: string): Tally | undefined {
  const plain = output.replace(/\u001b\[[0-9;]*m/g, "");
  const total = /Total:\s+(\d+)/.exec(plain);
  const passed = /Passed:\s+(\d+)/.exec(plain);
  const skipped = /Skipped:\s+(\d+)/.exec(plain);
  if (!total || !passed) return undefined;
  return { passed: Number(passed[1]), failed: Number(total[1]) - Number(passed[1]), skipped: Number(skipped?.[1] ?? 0) };
}

function runGroup(group: Group): Promise<Tally> {
  return new Promise((resolve) => {
    process.stdout.write(`\n=== ${group.label}\n`);
    const child = spawn(process.execPath, ["--import", "tsx", uvu, group.dir, group.pattern], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "test", ...(process.stdout.isTTY ? {} : { NO_COLOR: "1", FORCE_COLOR: "0" }) },
    });
    let output = "";
    const relay = (chunk: Buffer, to: NodeJS.WriteStream): void => {
      output += chunk.toString();
      to.write(chunk);
    };
    child.stdout.on("data", (c: Buffer) => relay(c, process.stdout));
    child.stderr.on("data", (c: Buffer) => relay(c, process.stderr));
    const timer = setTimeout(() => {
      process.stderr.write(`\n${group.label}: still running after ${groupTimeoutMs / 60000} minutes, killed\n`);
      child.kill("SIGKILL");
    }, groupTimeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      const tally = parse(output) ?? { passed: 0, failed: 0, skipped: 0 };
      if (code !== 0 && tally.failed === 0) {
        process.stderr.write(`\n${group.label}: exited with ${code ?? "a signal"} outside any test: counted as one failure\n`);
        tally.failed += 1;
      }
      resolve(tally);
    });
  });
}

const filter = process.argv[2];
const all: Tally = { passed: 0, failed: 0, skipped: 0 };
const failedGroups: string[] = [];
for (const group of groups(filter)) {
  const tally = await runGroup(group);
  all.passed += tally.passed;
  all.failed += tally.failed;
  all.skipped += tally.skipped;
  if (tally.failed > 0) failedGroups.push(relative(root, join(root, group.label)));
}
if (failedGroups.length > 0) process.stdout.write(`\nfailing groups: ${failedGroups.join(", ")}\n`);
const skipped = all.skipped > 0 ? `, ${all.skipped} skipped` : "";
process.stdout.write(`\n${all.passed} passed, ${all.failed} failed${skipped}\n`);
process.exitCode = all.failed > 0 || all.passed === 0 ? 1 : 0;
