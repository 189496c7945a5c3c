// Issue 5 benchmarks on a 3-node KMS cluster of real processes over nats-server:
//  1. leader failover: TRIALS (default 50) kill -9 of the leader, time until a
//     survivor leads in a higher term (p50, p99; target p99 <= 1 s);
//  2. key creations committed per second and p99 against a 3-member etcd 3.4
//     (Debian etcd-server) doing puts through its JSON gateway, both over TLS
//     with the same client concurrency (target >= 0.7x etcd). Both clusters
//     stay up and ROUNDS (BENCH_ROUNDS, default 3) alternating runs of each
//     are taken; the medians are compared and the spread of each side is
//     printed, with a warning when it is too wide for the ratio to be trusted.
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKmsClient, type KmsClient } from "@mc/kms";
import { freePort } from "../tests/harness/free-port.js";
import { startNatsServer } from "../tests/harness/nats-server.js";
import { startProcess, type Started } from "../tests/harness/processes.js";
import { writeServerCerts, type CertFiles } from "../tests/harness/tls-certs.js";
import { waitFor } from "../tests/harness/wait-for.js";
import { agreedLeader, apiKeyOf, idOf, startMember, statusOf, waitReady, writeClusterConfigs, type Member } from "../tests/kms/cluster-harness.js";
import { medianRun, spreadOf, trustLine } from "./trust.js";

const trials = Number(process.env.BENCH_TRIALS ?? 50);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = 32;
const warmupMs = Number(process.env.BENCH_WARMUP_MS ?? 10_000);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

const quantile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function failover(members: Member[], clients: KmsClient[], ca: Buffer): Promise<number[]> {
  const times: number[] = [];
  for (let t = 0; t < trials; t++) {
    const old = await agreedLeader(clients);
    const leader = members.find((m) => idOf(m) === old.id) as Member;
    const survivors = clients.filter((_c, i) => members[i] !== leader);
    const killedAt = process.hrtime.bigint();
    await leader.proc?.kill();
    await waitFor(async () => (await Promise.all(survivors.map(statusOf))).some((s) => s?.role === "leader" && s.term > old.term), {
      what: "a new leader",
      timeoutMs: 10000,
      intervalMs: 5,
    });
    times.push(Number(process.hrtime.bigint() - killedAt) / 1e6);
    startMember(leader);
    await waitReady(ca, leader, 30000);
  }
  return times.sort((a, b) => a - b);
}

interface Load {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  /** Operations that failed (not counted in the rate or the latencies), and the first one's error. */
  readonly failed: number;
  readonly firstError?: string;
}

/** The run with the median throughput (its own p50 and p99 kept together). */
const medianLoad = (runs: readonly Load[]): Load => medianRun(runs, (r) => r.perSecond);
const spreadOfLoads = (runs: readonly Load[]): number => spreadOf(runs, (r) => r.perSecond);

/**
 * `op(i)` from `concurrency` workers for `seconds`, after a warm-up. The
 * failover trials leave freshly started members, whose code is still being
 * optimised: after a 3 s warm-up our first round was the slowest in every
 * run (1,400-1,550/s against 1,800-1,950/s in the third, while etcd's rounds
 * were level), which made the spread untrustworthy. After 10 s the rounds
 * are level: a long-running server's rate, which is what users get.
 */
async function drive(op: (i: number) => Promise<void>): Promise<Load> {
  let next = 0;
  // A failed operation is counted and reported with the run (which is then not trusted),
  // instead of ending minutes of benchmarking with a stack trace.
  let failed = 0;
  let firstError: string | undefined;
  const run = async (ms: number): Promise<number[]> => {
    const lat: number[] = [];
    const end = Date.now() + ms;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < end) {
          const t = process.hrtime.bigint();
          try {
            await op(next++);
            lat.push(Number(process.hrtime.bigint() - t) / 1e6);
          } catch (err) {
            failed++;
            firstError ??= err instanceof Error ? err.message : String(err);
          }
        }
      }),
    );
    return lat;
  };
  await run(warmupMs);
  failed = 0;
  firstError = undefined;
  const lat = (await run(seconds * 1000)).sort((a, b) => a - b);
  return { perSecond: lat.length / seconds, p50: quantile(lat, 0.5), p99: quantile(lat, 0.99), failed, ...(firstError ? { firstError } : {}) };
}

async function startEtcd(dir: string, certs: CertFiles): Promise<{ urls: string[]; procs: Started[] }> {
  const client = [await freePort(), await freePort(), await freePort()];
  const peer = [await freePort(), await freePort(), await freePort()];
  const initial = peer.map((p, i) => `e${i + 1}=http://127.0.0.1:${p}`).join(",");
  const procs: Started[] = [];
  for (let i = 0; i < 3; i++) {
    await mkdir(join(dir, `e${i + 1}`), { recursive: true });
    const url = `https://127.0.0.1:${client[i]}`;
    const peerUrl = `http://127.0.0.1:${peer[i]}`;
    procs.push(
      startProcess("etcd", [
        `--name=e${i + 1}`,
        `--data-dir=${join(dir, `e${i + 1}`)}`,
        `--listen-client-urls=${url}`,
        `--advertise-client-urls=${url}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=${initial}`,
        "--initial-cluster-state=new",
        "--initial-cluster-token=bench",
        `--cert-file=${certs.certFile}`,
        `--key-file=${certs.keyFile}`,
        "--log-level=error",
      ]),
    );
  }
  return { urls: client.map((p) => `https://127.0.0.1:${p}`), procs };
}

function etcdPut(agent: Agent, base: string, key: string, value: Buffer): Promise<void> {
  const body = JSON.stringify({ key: Buffer.from(key).toString("base64"), value: value.toString("base64") });
  return new Promise((resolve, reject) => {
    const req = request(`${base}/v3/kv/put`, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`etcd put: ${res.statusCode}`))));
    });
    req.on("error", reject); // "on": a reset after an earlier error must not go unhandled and end the bench
    req.end(body);
  });
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "bench-kms-cluster-"));
  const nats = await startNatsServer();
  const certs = await writeServerCerts(join(dir, "certs"));
  const ca = await readFile(certs.caFile);
  const members = await writeClusterConfigs(join(dir, "kms"), 3, nats.url, certs);
  let etcd: { urls: string[]; procs: Started[] } | undefined;
  const clients: KmsClient[] = [];
  try {
    for (const m of members) startMember(m);
    for (const m of members) await waitReady(ca, m, 30000);
    const apiKey = apiKeyOf(members);
    for (const m of members) clients.push(await createKmsClient({ server: m.host, ca, ...(apiKey ? { apiKey } : {}) }));

    const times = await failover(members, clients, ca);
    process.stdout.write(`leader failover over ${times.length} kill -9 trials (3 nodes, election timeout 150-300 ms)\n`);
    process.stdout.write(`  p50 ${quantile(times, 0.5).toFixed(0)} ms  p99 ${quantile(times, 0.99).toFixed(0)} ms  max ${(times.at(-1) ?? 0).toFixed(0)} ms  (target p99 <= 1000 ms)\n`);

    await agreedLeader(clients);
    etcd = await startEtcd(join(dir, "etcd"), certs);
    const agent = new Agent({ keepAlive: true, ca, maxSockets: concurrency });
    const urls = etcd.urls;
    await waitFor(() => etcdPut(agent, urls[0] ?? "", "probe", Buffer.alloc(1)).then(() => true, () => false), { what: "etcd up", timeoutMs: 30000 });
    const value = Buffer.alloc(96, 1);
    const ours: Load[] = [];
    const theirs: Load[] = [];
    // Alternating, both clusters up (the idle one only heartbeats): a load change on the machine hits both sides.
    for (let r = 0; r < rounds; r++) {
      ours.push(
        await drive(async (i) => {
          const res = await (clients[i % clients.length] as KmsClient).send("POST", `/v1/key/create/bench-${r}-${i}`, {});
          if (res.status !== 200) throw new Error(`create: ${res.status} ${res.body.toString()}`);
        }),
      );
      theirs.push(await drive((i) => etcdPut(agent, urls[i % urls.length] ?? "", `bench-${r}-${i}`, value)));
    }
    agent.destroy();
    const f = (l: Load) => `${l.perSecond.toFixed(0)}/s  p50 ${l.p50.toFixed(1)} ms  p99 ${l.p99.toFixed(1)} ms${l.failed > 0 ? `  ${l.failed} FAILED (first: ${l.firstError ?? "?"})` : ""}`;
    const kms = medianLoad(ours);
    const e = medianLoad(theirs);
    process.stdout.write(`key creations, ${concurrency} concurrent clients over TLS spread over 3 nodes, ${seconds} s, median of ${rounds} alternating runs\n`);
    for (let r = 0; r < rounds; r++) process.stdout.write(`  run ${r + 1}: kms ${f(ours[r] as Load)} | etcd ${f(theirs[r] as Load)} | ${((ours[r] as Load).perSecond / (theirs[r] as Load).perSecond).toFixed(2)}x\n`);
    const sk = spreadOfLoads(ours);
    const se = spreadOfLoads(theirs);
    process.stdout.write(`  kms cluster  ${f(kms)}  (spread ${(100 * sk).toFixed(0)}%)\n  etcd 3.4     ${f(e)}  (spread ${(100 * se).toFixed(0)}%)\n`);
    process.stdout.write(`  ratio        ${(kms.perSecond / e.perSecond).toFixed(2)}x etcd throughput, p99 ${(kms.p99 / e.p99).toFixed(2)}x (target >= 0.7x, p99 <= 1.5x)\n`);
    // Each run's ratio pairs ours with the etcd run right after it, so a slow drift in the machine's load cancels out.
    const ratios = ours.map((o, r) => o.perSecond / ((theirs[r] as Load).perSecond || 1)).sort((a, b) => a - b);
    process.stdout.write(`  median of the per-run ratios ${(ratios[Math.floor(ratios.length / 2)] ?? 0).toFixed(2)}x (${ratios.map((x) => x.toFixed(2)).join(", ")})\n`);
    process.stdout.write(trustLine(rounds, { kms: sk, etcd: se }));
    const failures = [...ours, ...theirs].reduce((n, l) => n + l.failed, 0);
    if (failures > 0) process.stdout.write(`  NOT TRUSTED: ${failures} operations failed in the measured runs (see the runs above)\n`);
  } finally {
    for (const c of clients) c.close();
    for (const m of members) await m.proc?.kill();
    for (const p of etcd?.procs ?? []) await p.kill();
    await nats.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
