// One keyspace size of `npm run bench scale` (a child process): a single
// KMS node's data directory with N keys, built through the node's own
// command path; then, in this process, snapshot time and write p99 with and
// without a snapshot running (medians of three rounds); then `kms server`
// started on it (time to ready = snapshot load + log replay, the median of
// three starts; RSS per key) and `key list` with a prefix, paged and
// streamed (the server's peak RSS while it streams).
import { randomBytes } from "node:crypto";
import { createSoftwareHsm } from "../../services/kms/src/adapters/hsm/software-hsm.js";
import { createLocalNode, type LocalNode } from "../../services/kms/src/adapters/storage/local-node.js";
import { openDataDir } from "../../services/kms/src/adapters/storage/open-data-dir.js";
import { initCrypto } from "@mc/wasm";
import { readFile } from "node:fs/promises";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createKmsClient } from "@mc/kms";
import { startProcess, type Started } from "../../tests/harness/processes.js";
import { waitFor } from "../../tests/harness/wait-for.js";
import { createFixture, getStatus, kmsBin, type KmsFixture } from "../../tests/kms/kms-harness.js";
import { memoryOf, median, quantile, timed } from "./growth.js";

const size = Number(process.argv[2] ?? 10_000);
const replay = Math.max(100, Math.floor(size / 100));
const nameOf = (i: number): string => `tenant-${String(i).padStart(7, "0")}`;
const issuer = `h1:${"A".repeat(43)}`;
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

async function openLocal(dataDir: string): Promise<{ node: LocalNode; store: NonNullable<Awaited<ReturnType<typeof openDataDir>>["local"]> }> {
  const opened = await openDataDir(dataDir, createSoftwareHsm(new Uint8Array(Buffer.alloc(32, 5))), { mode: "single", enclaves: ["default", "other"], now: () => new Date().toISOString() });
  if (!opened.local) throw new Error("no local store");
  return { node: createLocalNode(opened.local, { snapshotEvery: Number.MAX_SAFE_INTEGER }), store: opened.local };
}

const create = (node: LocalNode, i: number) =>
  node.propose({ kind: "createKey", enclave: "default", name: nameOf(i), algorithm: "AES256", material: { sealedKey: randomBytes(73), sealedHmacKey: randomBytes(73) } }, issuer);

/** Write latencies (ms) of `concurrency` writers until `until` resolves (or `count` writes). */
async function writes(node: LocalNode, from: number, until: Promise<unknown> | number, concurrency = 16): Promise<{ lat: number[]; next: number }> {
  let done = false;
  if (typeof until !== "number") void until.then(() => (done = true));
  let next = from;
  const end = typeof until === "number" ? from + until : Number.POSITIVE_INFINITY;
  const lat: number[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!done && next < end) {
        const t = performance.now();
        await create(node, next++);
        lat.push(performance.now() - t);
      }
    }),
  );
  return { lat: lat.sort((a, b) => a - b), next };
}

/** `kms server` on the fixture, ready (a busy machine gets two minutes, not the tests' twenty seconds). */
async function startServer(fx: KmsFixture): Promise<Started> {
  const proc = startProcess(process.execPath, [kmsBin, "server", "--config", fx.configFile], { env: { ...process.env } });
  const ca = await readFile(fx.certs.caFile);
  await waitFor(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`kms exited: ${proc.output()}`);
      return (await getStatus(fx.port, "/v1/health/ready", ca)) === 200;
    },
    { what: "kms ready", timeoutMs: 120_000, intervalMs: 10 },
  );
  return proc;
}

interface WriteRound {
  /** Write p99 (ms) without a snapshot, then beside one, and the snapshot's time. */
  readonly base: number;
  readonly during: number;
  readonly snapshotMs: number;
  readonly writesDuring: number;
}

/**
 * The data directory at `size` keys, built through the node; then three
 * rounds on the reopened node of 2,000 writes without a snapshot and of
 * writes beside a snapshot of every key (as the node writes it). Its nodes
 * are closed and dropped when it returns.
 */
async function buildDirectory(): Promise<{ buildMs: number; rounds: WriteRound[]; next: number }> {
  const build = await timed(async () => {
    const { node } = await openLocal(fx.dataDir);
    for (let i = 0; i < size; i += 5000) await Promise.all(Array.from({ length: Math.min(5000, size - i) }, (_, j) => create(node, i + j)));
    await node.close();
  });
  const again = await openLocal(fx.dataDir);
  const rounds: WriteRound[] = [];
  let next = size;
  // Base and snapshot rounds alternate on one node, so both see the same process and machine.
  for (let r = 0; r < 3; r++) {
    const base = await writes(again.node, next, 2000);
    const snapshot = timed(() => again.store.writeSnapshot(again.node.state()));
    const during = await writes(again.node, base.next, snapshot);
    next = during.next;
    rounds.push({ base: quantile(base.lat, 0.99), during: quantile(during.lat, 0.99), snapshotMs: (await snapshot).ms, writesDuring: during.lat.length });
  }
  await again.node.close();
  // A realistic directory: a snapshot of (almost) all keys and a short log to replay.
  const compact = await openDataDir(fx.dataDir, createSoftwareHsm(new Uint8Array(Buffer.alloc(32, 5))), { mode: "single", enclaves: ["default", "other"], now: () => "" });
  if (!compact.local) throw new Error("no local store");
  const cnode = createLocalNode(compact.local, { snapshotEvery: 1 });
  await create(cnode, next);
  await cnode.close();
  const tail = await openLocal(fx.dataDir);
  await Promise.all(Array.from({ length: replay }, (_, j) => create(tail.node, next + 1 + j)));
  await tail.node.close();
  return { buildMs: build.ms, rounds, next: next + 1 + replay };
}

await initCrypto();
const fx = await createFixture("software");
try {
  // The empty server: creates the directory, and its RSS is the baseline.
  const emptyStart = await timed(() => startServer(fx));
  const empty = emptyStart.value;
  const emptyRssKiB = (await memoryOf(empty.child.pid ?? 0)).rssKiB;
  const apiKey = /API Key (k1:\S+)/.exec(empty.output())?.[1];
  if (!apiKey) throw new Error("no root API key printed");
  await empty.stop();

  const built = await buildDirectory();
  // Nothing of the nodes above stays reachable: this process is the list's client below, and a
  // client holding several million-key states (and collecting them) took seconds to read the list.
  gc();
  const keys = built.next;
  const mid = <T>(rows: readonly T[], pick: (r: T) => number): number => median(rows.map(pick));

  // Start-up three times (the median: one start on a shared machine can take twice as long); the last stays up.
  const starts: { ms: number; rssKiB: number }[] = [];
  let kms: Started | undefined;
  for (let r = 0; r < 3; r++) {
    await kms?.stop();
    const start = await timed(() => startServer(fx));
    kms = start.value;
    starts.push({ ms: start.ms, rssKiB: (await memoryOf(kms.child.pid ?? 0)).rssKiB });
  }
  if (!kms) throw new Error("no server");
  const pid = kms.child.pid ?? 0;
  const atStart = { rssKiB: mid(starts, (s) => s.rssKiB) };
  const c = await createKmsClient({ server: `127.0.0.1:${fx.port}`, ca: await readFile(fx.certs.caFile), apiKey });
  // A prefix holding a hundredth of the keys, walked in pages of 1,000.
  const prefix = `tenant-${String(Math.floor(size / 2)).padStart(7, "0").slice(0, 5)}*`;
  const paged = await timed(async () => {
    let at = "";
    let n = 0;
    do {
      const page = await c.call<{ names: string[]; continue_at: string }>("GET", `/v1/key/list/${prefix}?limit=1000${at ? `&continue_at=${at}` : ""}`);
      n += page.names.length;
      at = page.continue_at;
    } while (at !== "");
    return n;
  });
  const pageMs: number[] = [];
  for (let i = 0; i < 20; i++) pageMs.push((await timed(() => c.call("GET", `/v1/key/list/tenant-*?limit=100&continue_at=${nameOf(Math.floor((size * i) / 20))}`))).ms);
  const beforeStream = await memoryOf(pid);
  const streamed = await timed(() => c.send("GET", "/v1/key/list/*"));
  const afterStream = await memoryOf(pid);
  c.close();
  await kms.stop();
  const result = {
    keys,
    buildMs: built.buildMs,
    startMs: mid(starts, (s) => s.ms),
    emptyStartMs: emptyStart.ms,
    bytesPerKey: ((atStart.rssKiB - emptyRssKiB) * 1024) / keys,
    serverRssMiB: atStart.rssKiB / 1024,
    snapshotMs: mid(built.rounds, (r) => r.snapshotMs),
    writeP99: mid(built.rounds, (r) => r.base),
    writeP99During: mid(built.rounds, (r) => r.during),
    writesDuring: mid(built.rounds, (r) => r.writesDuring),
    prefixNames: paged.value,
    prefixPagedMs: paged.ms,
    pageMs: median(pageMs),
    streamMs: streamed.ms,
    streamBytes: streamed.value.body.length,
    streamRssGrowthMiB: (afterStream.peakKiB - beforeStream.peakKiB) / 1024,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
} finally {
  await fx.cleanup();
}
