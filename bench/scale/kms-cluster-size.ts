// One keyspace size of `npm run bench scale`, 3-node cluster (a child
// process): real `kms server` processes over nats-server. A founding node
// alone takes N keys through its API; two fresh nodes then join through
// /v1/cluster/add and catch up by snapshot (time to ready and holding the
// last key). On the 3-node cluster: memory per key, write p99 beside the
// nodes' snapshots against p99 away from them (the windows come from each
// node's "snapshot at entry" log line), start-up of all three (the median of
// three restarts), a rolling restart (each member alone, beside the two others:
// the median), and `key list` through a follower, paged and streamed.
// Run alone: `node --max-old-space-size=8192 --import tsx bench/scale/kms-cluster-size.ts 100000`;
// SCALE_KEEP=1 keeps the data and every member's output of a passing run too.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKmsClient, type KmsClient } from "@mc/kms";
import { freePort } from "../../tests/harness/free-port.js";
import { startNatsServer } from "../../tests/harness/nats-server.js";
import { writeServerCerts } from "../../tests/harness/tls-certs.js";
import { waitFor } from "../../tests/harness/wait-for.js";
import { agreedLeader, apiKeyOf, idOf, startMember, writeClusterConfigs, type Member } from "../../tests/kms/cluster-harness.js";
import { getStatus } from "../../tests/kms/kms-harness.js";
import { clusterSnapshotFloor } from "../../services/kms/src/domain/snapshot-cadence.js";
import { median, memoryOf, quantile, timed } from "./growth.js";
import { snapshotWindows, type Window } from "./snapshot-windows.js";

const size = Number(process.argv[2] ?? 10_000);
const nameOf = (i: number): string => `tenant-${String(i).padStart(7, "0")}`;
const pidOf = (m: Member): number => m.proc?.child.pid ?? 0;

/** Ready within five minutes (a node restoring a million keys on a busy machine). */
async function ready(ca: Buffer, m: Member): Promise<void> {
  await waitFor(
    async () => {
      if (m.proc && m.proc.child.exitCode !== null) throw new Error(`kms ${m.host} exited: ${m.proc.output()}`);
      return (await getStatus(m.port, "/v1/health/ready", ca).catch(() => 0)) === 200;
    },
    { what: `kms ${m.host} ready`, timeoutMs: 300_000, intervalMs: 10 },
  );
}

/** `count` creations from `workers` concurrent clients' requests; latencies with start and end times. */
async function create(c: KmsClient, from: number, count: number, workers: number): Promise<{ start: number; end: number }[]> {
  let next = from;
  const spans: { start: number; end: number }[] = [];
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < from + count) {
        const i = next++;
        const start = performance.now();
        const r = await c.send("POST", `/v1/key/create/${nameOf(i)}`, {});
        if (r.status !== 200) throw new Error(`create ${nameOf(i)}: ${r.status} ${r.body.toString()}`);
        spans.push({ start, end: performance.now() });
      }
    }),
  );
  return spans;
}

/** A fresh node's config: the founder's, with its own address; it names only the founder. */
async function joinerOf(dir: string, founder: Member, n: number): Promise<Member> {
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const nodeDir = join(dir, `n${n}`);
  await mkdir(nodeDir, { recursive: true });
  const yaml = (await readFile(founder.configFile, "utf8")).replace(/^address: .*$/m, `address: ${host}`).replace(/^ {2}host: .*$/m, `  host: ${host}`);
  const configFile = join(nodeDir, "kms.yaml");
  await writeFile(configFile, yaml);
  return { port, host, configFile, proc: undefined };
}

const dir = await mkdtemp(join(tmpdir(), "scale-kms-cluster-"));
let keep = false;

// Output of each member's earlier runs (a restart starts a new process with its own output).
const earlier = new Map<string, string>();
const said = (m: Member): string => `${earlier.get(m.host) ?? ""}${m.proc?.output() ?? ""}`;
async function stopMember(m: Member): Promise<void> {
  await m.proc?.stop();
  earlier.set(m.host, said(m));
}
const nats = await startNatsServer();
const members: Member[] = [];
/** What each node said, over all its runs (the only account of a failed join or start), to a file beside the data, which stays. */
async function keepOutput(failed: boolean): Promise<void> {
  keep = true;
  for (const m of members) {
    const all = said(m);
    await writeFile(join(dir, `${m.host.replace(/[^0-9A-Za-z.]/g, "_")}.log`), all);
    if (failed) process.stderr.write(`--- ${m.host}\n${all.split("\n").slice(-40).join("\n")}\n`);
  }
  process.stderr.write(`data directories and the nodes' output kept in ${dir}\n`);
}
const clients: KmsClient[] = [];
try {
  const certs = await writeServerCerts(join(dir, "certs"));
  const ca = await readFile(certs.caFile);
  const [founder] = await writeClusterConfigs(dir, 1, nats.url, certs);
  if (!founder) throw new Error("no founder");
  members.push(founder);
  const emptyStart = await timed(async () => {
    startMember(founder);
    await ready(ca, founder);
  });
  const emptyRssKiB = (await memoryOf(pidOf(founder))).rssKiB;
  const apiKey = apiKeyOf(members);
  if (!apiKey) throw new Error("no root API key printed");
  const client = (m: Member) => createKmsClient({ server: m.host, ca, apiKey });
  const first = await client(founder);
  clients.push(first);
  const build = await timed(() => create(first, 0, size, 64));

  // Two fresh nodes join, one at a time; each is caught up once it holds the last key.
  const catchUpMs: number[] = [];
  for (const n of [2, 3]) {
    const joiner = await joinerOf(dir, founder, n);
    members.push(joiner);
    startMember(joiner);
    await waitFor(() => joiner.proc?.output().includes("server not part of cluster"), { what: "the joiner listening", timeoutMs: 120_000 });
    const c = await client(joiner);
    clients.push(c);
    const t = await timed(async () => {
      const r = await first.send("POST", "/v1/cluster/add", { host: joiner.host });
      if (r.status !== 200) throw new Error(`cluster add: ${r.status} ${r.body.toString()}`);
      await ready(ca, joiner);
      await waitFor(async () => (await c.send("GET", `/v1/key/describe/${nameOf(size - 1)}?stale=true`)).status === 200, { what: "the last key on the joiner", timeoutMs: 300_000, intervalMs: 10 });
      // A large catch-up outlasts the add request: the node answers as a learner and is promoted when caught up.
      await waitFor(
        async () => (await first.call<{ nodes: { id: string; role: string }[] }>("GET", "/v1/cluster/status")).nodes.some((x) => x.id === idOf(joiner) && x.role !== "learner"),
        { what: "the joiner a voter", timeoutMs: 300_000, intervalMs: 20 },
      );
    });
    catchUpMs.push(t.ms);
  }
  const restored = /state restored from the snapshot at entry \d+ in (\d+) ms/.exec(members[2]?.proc?.output() ?? "")?.[1];

  // Writes across at least one snapshot on every node (a sixteenth of the keys, at least clusterSnapshotFloor entries apart).
  // The p99 of all of them is printed too: with paced snapshots under steady writes, most writes are beside one.
  const leader = await agreedLeader(clients);
  const lead = clients[members.findIndex((m) => idOf(m) === leader.id)] ?? first;
  const windows = snapshotWindows(members);
  const interval = Math.max(clusterSnapshotFloor, Math.floor(size / 16));
  // A member paces its snapshot while writes flow, so one may outlast 1.3 intervals of writes:
  // go on (up to six intervals) until every member finished one beside them.
  const spans: { start: number; end: number }[] = [];
  let extra = 0;
  for (let step = Math.ceil(interval * 1.3); ; step = Math.ceil(interval / 4)) {
    spans.push(...(await create(lead, size + extra, step, 16)));
    extra += step;
    const done = new Set(windows.seen().map((w) => w.member));
    if (done.size === members.length || extra >= interval * 6) break;
  }
  const seen: readonly Window[] = windows.stop();
  const overlaps = (s: { start: number; end: number }) => seen.some((w) => s.start < w.end && s.end > w.start);
  const lat = (pick: boolean) => spans.filter((s) => overlaps(s) === pick).map((s) => s.end - s.start).sort((a, b) => a - b);
  const during = lat(true);
  const base = lat(false);
  const written = size + extra;

  // Start-up of all three: the median of three restarts.
  for (const c of clients.splice(0)) c.close();
  const starts: number[] = [];
  for (let r = 0; r < 3; r++) {
    for (const m of members) await stopMember(m);
    const t = await timed(async () => {
      for (const m of members) startMember(m);
      for (const m of members) await ready(ca, m);
    });
    starts.push(t.ms);
  }
  // A rolling restart, as an operator upgrades a cluster: one member restarts while the two others
  // serve (on separate machines in production, a member's start-up is this figure, not the three at once).
  const rolling: number[] = [];
  for (const m of members) {
    await stopMember(m);
    const t = await timed(async () => {
      startMember(m);
      await ready(ca, m);
    });
    rolling.push(t.ms);
  }
  const rss = await Promise.all(members.map(async (m) => (await memoryOf(pidOf(m))).rssKiB));
  for (const m of members) clients.push(await client(m));
  const now = await agreedLeader(clients);
  const at = members.findIndex((m) => idOf(m) !== now.id);
  const follower = clients[at] ?? first;
  const followerPid = pidOf(members[at] as Member);
  const prefix = `tenant-${String(Math.floor(size / 2)).padStart(7, "0").slice(0, 5)}*`;
  const paged = await timed(async () => {
    let at = "";
    let n = 0;
    do {
      const page = await follower.call<{ names: string[]; continue_at: string }>("GET", `/v1/key/list/${prefix}?limit=1000${at ? `&continue_at=${at}` : ""}`);
      n += page.names.length;
      at = page.continue_at;
    } while (at !== "");
    return n;
  });
  const beforeStream = await memoryOf(followerPid);
  const streamed = await timed(() => follower.send("GET", "/v1/key/list/*"));
  const afterStream = await memoryOf(followerPid);
  const result = {
    keys: written,
    buildMs: build.ms,
    emptyStartMs: emptyStart.ms,
    catchUpMs: median(catchUpMs),
    restoreMs: Number(restored ?? 0),
    startMs: median(starts),
    oneMemberStartMs: median(rolling),
    bytesPerKey: ((Math.max(...rss) - emptyRssKiB) * 1024) / written,
    serverRssMiB: Math.max(...rss) / 1024,
    snapshots: seen.length,
    snapshotMs: median(seen.map((w) => w.end - w.start)),
    writeP99: quantile(base, 0.99),
    writeP99During: quantile(during, 0.99),
    writeP99All: quantile([...base, ...during].sort((a, b) => a - b), 0.99),
    writesDuring: during.length,
    prefixNames: paged.value,
    prefixPagedMs: paged.ms,
    streamMs: streamed.ms,
    streamBytes: streamed.value.body.length,
    streamRssGrowthMiB: (afterStream.peakKiB - beforeStream.peakKiB) / 1024,
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  // SCALE_KEEP=1 keeps a passing run's data and output too (where a figure came from).
  if (process.env["SCALE_KEEP"] === "1") await keepOutput(false);
} catch (err) {
  await keepOutput(true);
  throw err;
} finally {
  for (const c of clients) c.close();
  for (const m of members) await m.proc?.kill();
  await nats.stop();
  if (!keep) await rm(dir, { recursive: true, force: true });
}
