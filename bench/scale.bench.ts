// Issue 26: how each product's cost grows with its work, as curves. For each
// size a child process (so each size's peak RSS is its own) measures:
// - releases: catalogs of 100, 1,000 and 5,000 releases of 4 platforms:
//   publish, the first answer after a change, cold and warm list pages and
//   `latest`, feeds, notes index, releases page, gateway RSS;
// - kms (single node): 10k, 100k and 1M keys: start-up (snapshot load + log
//   replay), memory per key, snapshot time and write p99 with and without
//   it, `key list` with a prefix (paged) and of every name (streamed);
// - etcd 3.4 (the peer) with the same number of keys: start-up and memory;
// - mc against Ceph RGW: buckets of 10k and 100k objects: `ls -r` and
//   `find` (wall, first line, peak RSS), `mirror`, `diff` and `rm -r` of 5k
//   and 50k of them (peak RSS, DeleteObjects batches), with rclone's
//   `lsf -R` / `ls` / `sync` / `check` / `delete` beside them.
// - kms-cluster: the same sizes on 3 real nodes: two fresh nodes join a
//   founding node holding the keys (catch-up by snapshot), then start-up,
//   memory per key, write p99 beside snapshots, `key list` via a follower;
// Each table gives the growth per step and says "linear", "sub-linear" or
// names the step that grows faster. Env: SCALE_PARTS=releases,kms,kms-cluster,etcd,mc;
// SCALE_RELEASES / SCALE_KEYS / SCALE_CLUSTER_KEYS / SCALE_OBJECTS / SCALE_MIRROR_OBJECTS (comma
// lists; mirror sizes pair with object sizes and default to half of them)
// or SCALE_MAX_RELEASES / SCALE_MAX_KEYS / SCALE_MAX_OBJECTS (caps on the
// defaults, e.g. SCALE_MAX_KEYS=100000).
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { printGrowth } from "./scale/growth.js";
import { printMc } from "./scale/mc-tables.js";

const here = dirname(fileURLToPath(import.meta.url));
const parts = (process.env.SCALE_PARTS ?? "releases,kms,kms-cluster,etcd,mc").split(",");
const sizes = (list: string | undefined, defaults: number[], max: number): number[] => (list ? list.split(",").map(Number) : defaults.filter((n) => n <= max));
const releaseSizes = sizes(process.env.SCALE_RELEASES, [100, 1000, 5000], Number(process.env.SCALE_MAX_RELEASES ?? 5000));
const keySizes = sizes(process.env.SCALE_KEYS, [10_000, 100_000, 1_000_000], Number(process.env.SCALE_MAX_KEYS ?? 1_000_000));
const clusterSizes = sizes(process.env.SCALE_CLUSTER_KEYS, [10_000, 100_000, 1_000_000], Number(process.env.SCALE_MAX_KEYS ?? 1_000_000));
const objectSizes = sizes(process.env.SCALE_OBJECTS, [10_000, 100_000], Number(process.env.SCALE_MAX_OBJECTS ?? 100_000));
const mirrorSizes = process.env.SCALE_MIRROR_OBJECTS ? process.env.SCALE_MIRROR_OBJECTS.split(",").map(Number) : objectSizes.map((n) => Math.floor(n / 2));

type Result = Record<string, number>;

function run(part: string, n: number, ...more: number[]): Result {
  const started = performance.now();
  const args = [join(here, "scale", `${part}-size.ts`), String(n), ...more.map(String)];
  const res = spawnSync(process.execPath, ["--max-old-space-size=8192", "--import", "tsx", ...args], { encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
  const line = /^RESULT (.*)$/m.exec(res.stdout)?.[1];
  if (!line) throw new Error(`${part} at ${n} failed (${res.status}):\n${res.stdout}${res.stderr}`);
  process.stdout.write(`  ${part} ${n}: done in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  return JSON.parse(line) as Result;
}

const col = (rows: readonly Result[], key: string): number[] => rows.map((r) => r[key] ?? 0);

/** Issue 26's KMS targets at the largest size (single node or cluster alike). */
function printKmsTargets(sizes: readonly number[], rows: readonly Result[]): void {
  const last = rows.at(-1);
  if (!last) return;
  const ratio = (last.writeP99During ?? 0) / Math.max(last.writeP99 ?? 1, 1e-6);
  process.stdout.write(`  targets at ${sizes.at(-1)} keys: start ${((last.startMs ?? 0) / 1000).toFixed(1)} s (<= 15 s), ${(last.bytesPerKey ?? 0).toFixed(0)} B/key (<= 1024), write p99 beside a snapshot x${ratio.toFixed(2)}${last.writesDuring === undefined ? "" : ` over ${last.writesDuring} writes`} (<= 2x), streaming RSS growth ${(last.streamRssGrowthMiB ?? 0).toFixed(1)} MiB\n`);
}

process.stdout.write(`scale: releases ${releaseSizes.join("/")}, keys ${keySizes.join("/")}, objects ${objectSizes.join("/")} (mirrored ${mirrorSizes.join("/")}) (figures from one run; a busy machine makes them noisy)\n`);
if (parts.includes("releases")) {
  const rows = releaseSizes.map((n) => run("releases", n));
  printGrowth("Releases (client/mc, 4 platforms each); times in ms", releaseSizes, [
    { name: "publish one release", unit: "ms", values: col(rows, "publishMs") },
    { name: "first answer after a change (relist)", unit: "ms", values: col(rows, "firstAfterChange") },
    { name: "list page limit=20, cold", unit: "ms", values: col(rows, "listCold"), perPage: true },
    { name: "list page limit=20, warm", unit: "ms", values: col(rows, "listWarm"), perPage: true },
    { name: "latest, cold", unit: "ms", values: col(rows, "latestCold"), perPage: true },
    { name: "latest, warm", unit: "ms", values: col(rows, "latestWarm"), perPage: true },
    { name: "JSON feed (50 items)", unit: "ms", values: col(rows, "feedJson"), perPage: true },
    { name: "RSS feed (50 items)", unit: "ms", values: col(rows, "feedRss"), perPage: true },
    { name: "notes index (every release)", unit: "ms", values: col(rows, "notesIndex") },
    { name: "releases page (every release)", unit: "ms", values: col(rows, "page") },
    { name: "whole list, no limit", unit: "ms", values: col(rows, "whole") },
    { name: "gateway RSS after the requests", unit: "MiB", values: col(rows, "gatewayRssMiB") },
    { name: "gateway RSS growth while serving", unit: "MiB", values: col(rows, "gatewayGrowthMiB") },
    { name: "peak RSS of the process", unit: "MiB", values: col(rows, "peakRssMiB") },
  ]);
  const last = rows.at(-1);
  const first = rows[0];
  if (first && last) {
    const r = (k: string) => ((last[k] ?? 0) / (first[k] ?? 1)).toFixed(2);
    process.stdout.write(`  target: cold list page and latest at ${releaseSizes.at(-1)} within 2x of ${releaseSizes[0]}: list x${r("listCold")}, latest x${r("latestCold")}\n`);
  }
}
let kmsRows: Result[] = [];
if (parts.includes("kms")) {
  kmsRows = keySizes.map((n) => run("kms", n));
  printGrowth("KMS single node; times in ms", keySizes, [
    { name: "load through the node (build)", unit: "ms", values: col(kmsRows, "buildMs") },
    { name: "start-up to ready (snapshot + replay)", unit: "ms", values: col(kmsRows, "startMs") },
    { name: "start-up of the empty node", unit: "ms", values: col(kmsRows, "emptyStartMs") },
    { name: "server RSS at ready", unit: "MiB", values: col(kmsRows, "serverRssMiB") },
    { name: "memory per key", unit: "B", values: col(kmsRows, "bytesPerKey") },
    { name: "snapshot time", unit: "ms", values: col(kmsRows, "snapshotMs") },
    { name: "write p99 without a snapshot", unit: "ms", values: col(kmsRows, "writeP99") },
    { name: "write p99 during a snapshot", unit: "ms", values: col(kmsRows, "writeP99During") },
    { name: "key list page limit=100", unit: "ms", values: col(kmsRows, "pageMs"), perPage: true },
    { name: "prefix (1/100 of keys) in pages of 1000", unit: "ms", values: col(kmsRows, "prefixPagedMs") },
    { name: "list of every name, streamed", unit: "ms", values: col(kmsRows, "streamMs") },
    // Flat memory while streaming means a few MiB of allocator noise at every size, not 0.
    { name: "server peak RSS growth while streaming", unit: "MiB", values: col(kmsRows, "streamRssGrowthMiB"), floor: 8 },
  ]);
  printKmsTargets(keySizes, kmsRows);
}
if (parts.includes("kms-cluster")) {
  const rows = clusterSizes.map((n) => run("kms-cluster", n));
  printGrowth("KMS 3-node cluster (real processes over nats-server); times in ms", clusterSizes, [
    { name: "load through the founding node (API)", unit: "ms", values: col(rows, "buildMs") },
    { name: "a fresh node joins and catches up", unit: "ms", values: col(rows, "catchUpMs") },
    { name: "  of which restoring the snapshot", unit: "ms", values: col(rows, "restoreMs") },
    { name: "start-up of all three to ready", unit: "ms", values: col(rows, "startMs") },
    { name: "one member restarted beside two running", unit: "ms", values: col(rows, "oneMemberStartMs") },
    { name: "largest node RSS at ready", unit: "MiB", values: col(rows, "serverRssMiB") },
    { name: "memory per key (largest node)", unit: "B", values: col(rows, "bytesPerKey") },
    { name: "snapshot time (from the nodes' log)", unit: "ms", values: col(rows, "snapshotMs") },
    { name: "write p99 away from snapshots", unit: "ms", values: col(rows, "writeP99") },
    { name: "write p99 beside a snapshot", unit: "ms", values: col(rows, "writeP99During") },
    { name: "prefix (1/100 of keys) via a follower, pages of 1000", unit: "ms", values: col(rows, "prefixPagedMs") },
    { name: "list of every name via a follower, streamed", unit: "ms", values: col(rows, "streamMs") },
    { name: "follower peak RSS growth while streaming", unit: "MiB", values: col(rows, "streamRssGrowthMiB"), floor: 8 },
  ]);
  printKmsTargets(clusterSizes, rows);
  const last = rows.at(-1);
  // Three processes on one machine share its cores; on their own machines each starts as a rolling restart does.
  if (last) process.stdout.write(`  a member's own start-up at ${clusterSizes.at(-1)} keys (rolling restart): ${((last.oneMemberStartMs ?? 0) / 1000).toFixed(1)} s (<= 15 s)\n`);
}
if (parts.includes("etcd")) {
  const rows = keySizes.map((n) => run("etcd", n));
  printGrowth("etcd 3.4, one node, same keys (146-byte values)", keySizes, [
    { name: "load (txns of 1000 puts)", unit: "ms", values: col(rows, "loadMs") },
    { name: "start-up to first read", unit: "ms", values: col(rows, "startMs") },
    { name: "RSS at start", unit: "MiB", values: col(rows, "rssMiB") },
    { name: "memory per key", unit: "B", values: col(rows, "bytesPerKey") },
  ]);
  if (kmsRows.length === rows.length) {
    process.stdout.write("  kms / etcd:");
    keySizes.forEach((n, i) => {
      const k = kmsRows[i] ?? {};
      const e = rows[i] ?? {};
      process.stdout.write(` ${n}: start x${((k.startMs ?? 0) / (e.startMs ?? 1)).toFixed(2)}, memory/key x${((k.bytesPerKey ?? 0) / (e.bytesPerKey ?? 1)).toFixed(2)};`);
    });
    process.stdout.write("\n");
  }
}
if (parts.includes("mc")) printMc(objectSizes.map((n, i) => run("mc", n, mirrorSizes[i] ?? Math.floor(n / 2))));
