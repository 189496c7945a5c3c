// `npm run cluster -- up`: starts whatever part of the topology is not
// running, in dependency order, and returns once every service is ready.
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { logFile, logTail, runningPid, startDetached, stopAll } from "./processes.js";
import { ensureSecrets, readHsmKey, readRootKey } from "./secrets.js";
import { createFsReleaseStore, publishSampleCatalog } from "@mc/releases";
import { kmsNames, kmsSans, releaseKeyOf, releaseStoreOf, secretsOf, services, writeKmsConfigs, type Service } from "./services.js";
import { allPorts, loadTopology, portIsFree, saveTopology, type Topology } from "./topology.js";

/** A failure the operator can act on: printed as one message, exit status 1. */
export class ClusterError extends Error {
  override readonly name = "ClusterError";
}

export function findOnPath(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return (env.PATH ?? "").split(delimiter).filter((d) => d !== "").map((d) => join(d, command)).find((p) => existsSync(p));
}

const readyTimeoutMs = (kind: Service["kind"]): number => (kind === "kms" ? 60_000 : 30_000);

async function waitReady(t: Topology, s: Service, pid: number): Promise<void> {
  const deadline = Date.now() + readyTimeoutMs(s.kind);
  while (Date.now() < deadline) {
    if (await s.ready().catch(() => false)) return;
    if ((await runningPid(t.dir, s.name)) !== pid) {
      throw new ClusterError(`${s.name} exited during start-up; last lines of ${logFile(t.dir, s.name)}:\n${await logTail(t.dir, s.name)}`);
    }
    await delay(100);
  }
  throw new ClusterError(`${s.name} was not ready within ${readyTimeoutMs(s.kind) / 1000} s; last lines of ${logFile(t.dir, s.name)}:\n${await logTail(t.dir, s.name)}`);
}

export interface UpResult {
  readonly topology: Topology;
  readonly started: string[];
  readonly services: Service[];
}

export async function up(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<UpResult> {
  if (!findOnPath("nats-server", env)) {
    throw new ClusterError("nats-server not found on PATH: install it (Debian: apt-get install nats-server) or add its folder to PATH");
  }
  const { topology: t, unsaved } = await loadTopology(dir, env);
  const files = secretsOf(t);
  const list = services(t, () => readHsmKey(files));
  const notRunning: Service[] = [];
  for (const s of list) if ((await runningPid(dir, s.name)) === undefined) notRunning.push(s);
  if (notRunning.length === 0) return { topology: t, started: [], services: list };
  // From nothing running, every port must be free: a clear message beats a crash in a log.
  if (notRunning.length === list.length) {
    const busy: number[] = [];
    for (const p of allPorts(t.ports)) if (!(await portIsFree(p))) busy.push(p);
    if (busy.length > 0) {
      throw new ClusterError(`port${busy.length > 1 ? "s" : ""} ${busy.join(", ")} on 127.0.0.1 ${busy.length > 1 ? "are" : "is"} in use by another program; stop it, or use another state folder with MC_CLUSTER_DIR and MC_CLUSTER_PORTS=auto`);
    }
  }
  await ensureSecrets(files.dir, kmsNames.map((name) => ({ name, hosts: kmsSans(name) })));
  const { identity } = await readRootKey(files);
  if (unsaved) await saveTopology(t);
  await writeKmsConfigs(t, identity);
  // As the embedded default: a signing key (created once, mode 0600) and the same sample catalog, before any service reads the store.
  const store = await createFsReleaseStore(releaseStoreOf(t));
  await publishSampleCatalog(store, releaseKeyOf(t));
  // And this checkout's real mc as the newest client/mc (issue 23; the build is cached per CLI source change).
  if (env["MC_SEED_MC"] !== "off") {
    const say = (line: string): void => void process.stderr.write(`${line}\n`);
    // Loaded here only: `cluster --help`, `status` and `down` never need the build tooling.
    const { publishRealMc } = await import("../release/seed-mc.js");
    say(await publishRealMc({ store, keyFile: releaseKeyOf(t), log: say }));
  }
  const started: { name: string; pid: number }[] = [];
  try {
    // Dependency order: the bus, then the KMS nodes together (a leader needs a majority), then the rest.
    for (const kind of ["nats", "kms", "releases", "gateway"] as const) {
      const batch = notRunning.filter((s) => s.kind === kind);
      const pids: number[] = [];
      for (const s of batch) {
        const pid = await startDetached(dir, await s.spec());
        started.push({ name: s.name, pid });
        pids.push(pid);
      }
      await Promise.all(batch.map((s, i) => waitReady(t, s, pids[i] ?? 0)));
    }
  } catch (err) {
    // Leave nothing half-started behind: what this run started, it stops.
    await stopAll(dir, started.map((s) => s.pid));
    throw err;
  }
  return { topology: t, started: started.map((s) => s.name), services: list };
}
