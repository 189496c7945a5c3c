// What the update notifier (issue 28) costs a command (`npm run bench
// mc-update-notifier`): a release build's `ls` of a small folder with
// MC_UPDATE=off against the same run whose daily check is due and whose
// release folder is dead (nothing listens on the port) or stalled (accepts
// the connection, never answers: the one case that costs up to the 250 ms
// grace, once a day). The state file is removed before each run, so every
// measured run makes its one attempt.
// Median of 15 alternating runs each; ratios to MC_UPDATE=off.
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "../tests/harness/free-port.js";
import { cleanEnv, repoRoot } from "../tests/mc/mc-runner.js";

const runs = 15;
const work = await mkdtemp(join(tmpdir(), "mc-notifier-bench-"));
const build = join(work, "mc");
await promisify(execFile)(process.execPath, [join(repoRoot, "cli", "scripts", "build.mjs"), "--release", "RELEASE.2026-01-05T10-00-00Z", "--out", build]);
const data = join(work, "data");
await mkdir(data);
for (let i = 0; i < 10; i++) await writeFile(join(data, `f${i}`), "x");
const config = join(work, "config");

// An accepting listener that never answers: the notifier's worst case (it waits its grace once).
const held: Socket[] = [];
const stall = createServer((s) => held.push(s));
await new Promise<void>((r) => stall.listen(0, "127.0.0.1", r));
const stallPort = (stall.address() as { port: number }).port;
const deadPort = await freePort();

function run(env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [build, "-C", config, "ls", data], { env: cleanEnv(env), stdio: "ignore" });
    child.once("close", (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`mc exited ${code}`))));
  });
}

const cases: Record<string, Record<string, string>> = {
  off: { MC_UPDATE: "off" },
  dead: { MC_UPDATE_URL: `http://127.0.0.1:${deadPort}/client/mc/release` },
  stalled: { MC_UPDATE_URL: `http://127.0.0.1:${stallPort}/client/mc/release` },
};
await run(cases["off"] ?? {}); // writes the config folder
const times: Record<string, number[]> = { off: [], dead: [], stalled: [] };
for (let i = 0; i < runs; i++) {
  for (const [name, env] of Object.entries(cases)) {
    await rm(join(config, "update-check.json"), { force: true });
    times[name]?.push(await run(env));
  }
}
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const base = median(times["off"] ?? []);
for (const name of Object.keys(cases)) {
  const m = median(times[name] ?? []);
  process.stdout.write(`${name.padEnd(8)} median ${m.toFixed(1)} ms  ratio to MC_UPDATE=off ${(m / base).toFixed(2)}x\n`);
}
for (const s of held) s.destroy();
stall.close();
await rm(work, { recursive: true, force: true });
