// Shared by the live publishing tests: processes of a deployment (releases
// instances and gateways over NATS), 20 ms pollers on every gateway, and the
// acceptance's checks (no disagreement, every publish visible within 2 s).
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as assert from "uvu/assert";
import { freePort } from "../harness/free-port.js";
import { startProcess, type Started } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";
import type { PollLog } from "./live-poller.js";
import { makeReleaseDir } from "./release-dir.js";

export const releasesBin = fileURLToPath(new URL("../../services/releases/bin/releases.js", import.meta.url));
export const gatewayBin = fileURLToPath(new URL("../../gateway/bin/gateway.js", import.meta.url));
export const visibleWithinMs = 2000;

/** Ids after the sample catalog's newest client release, one per publish; `from` keeps runs on one store apart. */
export const idOf = (i: number, from = 0): string => `RELEASE.2026-12-${String(from + i + 1).padStart(2, "0")}T10-00-00Z`;

export async function startGateway(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ proc: Started; base: string }> {
  const port = await freePort();
  const proc = startProcess(process.execPath, [gatewayBin, "--listen", `127.0.0.1:${port}`, ...args], { env });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(() => fetch(`${base}/healthz`).then((r) => r.ok), { what: `gateway: ${proc.output()}`, timeoutMs: 30000 });
  return { proc, base };
}

export async function startReleases(natsUrl: string, store: string, key: string, env: NodeJS.ProcessEnv = process.env): Promise<Started> {
  const proc = startProcess(process.execPath, [releasesBin, "serve", "--nats", natsUrl, "--store", store, "--base-url", "http://dl.example.test", "--key", key], { env });
  await waitFor(() => proc.output().includes("releases ready"), { what: `releases: ${proc.output()}`, timeoutMs: 30000 });
  return proc;
}

/** Runs `releases …` to its end; fails the test on a non-zero exit. */
export async function releasesCli(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<void> {
  const cli = startProcess(process.execPath, [releasesBin, ...args], { env, ...(cwd ? { cwd } : {}) });
  await new Promise((resolve) => cli.child.once("exit", resolve));
  assert.is(cli.child.exitCode, 0, cli.output());
}

/**
 * Publishes `count` releases one after the other, each once the previous is
 * visible on every poller; returns how long each took to show on the last
 * gateway, from the moment its publish returned.
 */
export async function publishAll(root: string, logs: readonly PollLog[], count: number, publish: (dir: string, id: string) => Promise<void>, from = 0): Promise<number[]> {
  const delays: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = idOf(i, from);
    const dir = await makeReleaseDir(join(root, `src-${from + i}`), { component: "mc", releaseId: id });
    await publish(dir, id);
    const done = performance.now();
    const problems = (): string => logs.flatMap((l) => l.problems).slice(0, 2).join("; ");
    const seen = await waitFor(() => (logs.every((l) => l.firstSeen(id) !== undefined) ? logs.map((l) => l.firstSeen(id) ?? 0) : undefined), { what: `${id} on every gateway (${problems()})`, timeoutMs: 30000 });
    delays.push(Math.max(...seen) - done);
  }
  return delays;
}

/** The acceptance: no problem on any gateway, enough 20 ms rounds, every publish visible within 2 s. */
export function check(logs: readonly PollLog[], delays: readonly number[], from = 0): void {
  const problems = logs.flatMap((l) => l.problems);
  assert.equal(problems.slice(0, 5), [], `${problems.length} problems`);
  for (const l of logs) assert.ok(l.rounds.length > delays.length * 5, `too few poll rounds: ${l.rounds.length}`);
  const late = delays.map((d, i) => ({ id: idOf(i, from), ms: Math.round(d) })).filter((d) => d.ms > visibleWithinMs);
  assert.equal(late, [], `visible later than ${visibleWithinMs} ms (all: ${delays.map(Math.round).join(", ")})`);
}
