// Issue 26: a log's fsync latency while a large snapshot file is written
// beside it on the same file system. On ext4 (data=ordered) a file written
// whole and synced once leaves its dirty pages to that fsync, and every log
// fsync in the window waits for the journal commit that orders them.
// writeFileAtomic syncs streamed data every MiB by default; this compares it
// with syncing only at the end, and with no snapshot at all. Three alternating
// rounds; the median of each is printed, and the ratio to the quiet log.
import { randomBytes } from "node:crypto";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "@mc/shared/node";

const snapshotMb = Number(process.env.BENCH_SNAPSHOT_MB ?? 178);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const dir = await mkdtemp(join(tmpdir(), "snapshot-fsync-"));
const piece = randomBytes(64 * 1024);

async function* snapshotPieces(): AsyncGenerator<Uint8Array> {
  for (let n = 0; n < snapshotMb * 16; n++) yield piece;
}

/** Appends a 200-byte record and fdatasyncs it, again and again, until `until` settles; the latencies in ms. */
async function logBeside(until: Promise<unknown>): Promise<number[]> {
  const log = await open(join(dir, "log"), "a");
  const record = randomBytes(200);
  const times: number[] = [];
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    const start = performance.now();
    await log.write(record);
    await log.datasync();
    times.push(performance.now() - start);
  }
  await log.close();
  return times;
}

const quantile = (xs: readonly number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};
const median = (xs: readonly number[]): number => quantile(xs, 0.5);

const modes = {
  "no snapshot (2 s)": () => new Promise((r) => setTimeout(r, 2000)),
  "snapshot synced every MiB (default)": () => writeFileAtomic(join(dir, "snapshot.bin"), snapshotPieces(), 0o600),
  "snapshot synced only at the end": () => writeFileAtomic(join(dir, "snapshot.bin"), snapshotPieces(), 0o600, { syncEveryBytes: Number.POSITIVE_INFINITY }),
} as const;
type Mode = keyof typeof modes;
const p99s = new Map<Mode, number[]>();
const maxes = new Map<Mode, number[]>();
for (let round = 0; round < rounds; round++) {
  for (const mode of Object.keys(modes) as Mode[]) {
    const start = performance.now();
    const times = await logBeside(modes[mode]());
    const ms = performance.now() - start;
    p99s.set(mode, [...(p99s.get(mode) ?? []), quantile(times, 0.99)]);
    maxes.set(mode, [...(maxes.get(mode) ?? []), Math.max(...times)]);
    process.stdout.write(`  round ${round + 1} ${mode.padEnd(36)} ${ms.toFixed(0).padStart(6)} ms, ${times.length} log fsyncs, p99 ${quantile(times, 0.99).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms\n`);
  }
}
const quiet = median(p99s.get("no snapshot (2 s)") ?? []);
process.stdout.write(`log fsync beside a ${snapshotMb} MB snapshot, median of ${rounds} rounds:\n`);
for (const mode of Object.keys(modes) as Mode[]) {
  const p99 = median(p99s.get(mode) ?? []);
  process.stdout.write(`  ${mode.padEnd(36)} p99 ${p99.toFixed(1).padStart(6)} ms (x${(p99 / quiet).toFixed(2)} the quiet log), max ${median(maxes.get(mode) ?? []).toFixed(1)} ms\n`);
}
await rm(dir, { recursive: true, force: true });
