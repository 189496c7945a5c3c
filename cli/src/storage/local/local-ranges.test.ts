import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { RangeInto } from "../types.js";
import { writeRangesToFile } from "./local-ranges.js";

const ranges = suite("ranged download into a file");
let dir = "";
const here = dirname(fileURLToPath(import.meta.url));
const byteAt = (i: number): number => (i * 7) % 251;
/** Range [offset, offset + length) as a stream of `piece`-byte chunks. */
const fetchIn = (piece: number, missing = 0) => async (offset: number, length: number) => {
  const out: Buffer[] = [];
  for (let at = offset; at < offset + length - missing; at += piece) out.push(Buffer.from(Array.from({ length: Math.min(piece, offset + length - missing - at) }, (_, i) => byteAt(at + i))));
  return Readable.from(out);
};

ranges.before(async () => {
  dir = await mkdtemp(join(tmpdir(), "local-ranges-"));
});
ranges.after(() => rm(dir, { recursive: true, force: true }));

ranges("should put every byte at its offset, from many small socket chunks (more than IOV_MAX per write)", async () => {
  const size = 3 * 1024 * 1024 + 17;
  await writeRangesToFile(join(dir, "many.bin"), size, fetchIn(500), { rangeSize: 1024 * 1024 + 3, parallel: 3 });
  const got = await readFile(join(dir, "many.bin"));
  assert.is(got.length, size);
  assert.ok(got.equals(Buffer.from(Array.from({ length: size }, (_, i) => byteAt(i)))), "bytes out of place");
});

ranges("should fail a short range and leave neither the file nor its temp file", async () => {
  let failed = "";
  await writeRangesToFile(join(dir, "short.bin"), 3000, fetchIn(100, 10), { rangeSize: 1000, parallel: 2 }).catch((err: unknown) => (failed = String(err)));
  assert.match(failed, /received 990 bytes, expected 1000/);
  assert.not.ok((await readdir(dir)).some((n) => n.includes("short")));
});

/** A source reading ranges into the writer's buffers in `piece`-byte reads, delivering all but `short` bytes of each. */
const intoIn = (piece: number, short = 0, calls: number[] = []): RangeInto => async (offset, length, sink) => {
  calls.push(offset);
  let at = offset;
  while (at < offset + length - short) {
    const room = sink.room();
    const n = Math.min(piece, room.length, offset + length - short - at);
    for (let i = 0; i < n; i++) room[i] = byteAt(at + i);
    at += n;
    await sink.put(n);
  }
  return at - offset;
};

ranges("should read ranges into its buffers, fetching nothing, with each byte at its offset", async () => {
  const size = 5 * 1024 * 1024 + 333;
  const calls: number[] = [];
  const fetched: number[] = [];
  const fetch = (offset: number, length: number): Promise<Readable> => (fetched.push(offset), fetchIn(500)(offset, length));
  let progress = 0;
  await writeRangesToFile(join(dir, "into.bin"), size, fetch, { rangeSize: 2 * 1024 * 1024 + 1, parallel: 2, into: intoIn(70_001, 0, calls), onProgress: (b) => (progress = b) });
  const got = await readFile(join(dir, "into.bin"));
  assert.ok(got.equals(Buffer.from(Array.from({ length: size }, (_, i) => byteAt(i)))), "bytes out of place");
  assert.equal([calls.length, fetched.length, progress], [3, 0, size]);
});

ranges("should fetch the rest of a range its reader left short, and only the rest", async () => {
  const size = 3 * 1024 * 1024;
  const fetched: Array<[number, number]> = [];
  const fetch = (offset: number, length: number): Promise<Readable> => (fetched.push([offset, length]), fetchIn(4096)(offset, length));
  await writeRangesToFile(join(dir, "rest.bin"), size, fetch, { rangeSize: 1024 * 1024, parallel: 3, into: intoIn(65536, 1000) });
  const got = await readFile(join(dir, "rest.bin"));
  assert.ok(got.equals(Buffer.from(Array.from({ length: size }, (_, i) => byteAt(i)))), "bytes out of place");
  assert.equal(fetched.sort((a, b) => a[0] - b[0]), [0, 1, 2].map((r) => [(r + 1) * 1024 * 1024 - 1000, 1000]));
});

// A file size limit (ulimit -f; node ignores SIGXFSZ) cuts a write short part-way, as a full disk does.
ranges("should fail, not leave a file with a hole, when a write is cut short", () => {
  const target = join(dir, "limited.bin");
  const script = `import { writeRangesToFile } from ${JSON.stringify(join(here, "local-ranges.ts"))};
import { Readable } from "node:stream";
const fetch = async (offset, length) => Readable.from([Buffer.alloc(length, 1)]);
await writeRangesToFile(${JSON.stringify(target)}, 1536 * 1024, fetch, { rangeSize: 768 * 1024, parallel: 2 }).then(() => console.log("written"), (err) => console.log("failed:", err.message));`;
  const res = spawnSync("bash", ["-c", 'ulimit -f 1024 && exec "$0" --import tsx --input-type=module -e "$1"', process.execPath, script], { encoding: "utf8" });
  assert.match(res.stdout, /failed: short write at/, res.stdout + res.stderr);
});

ranges("should fail, not leave a file with a hole, when a write from its buffers is cut short", () => {
  const target = join(dir, "limited-into.bin");
  const script = `import { writeRangesToFile } from ${JSON.stringify(join(here, "local-ranges.ts"))};
const into = async (offset, length, sink) => { let n = 0; while (n < length) { const room = sink.room(); const k = Math.min(room.length, length - n); room.fill(1, 0, k); n += k; await sink.put(k); } return n; };
const fetch = async () => { throw new Error("fetched"); };
await writeRangesToFile(${JSON.stringify(target)}, 3 * 1024 * 1024, fetch, { rangeSize: 1536 * 1024, parallel: 2, into }).then(() => console.log("written"), (err) => console.log("failed:", err.message));`;
  const res = spawnSync("bash", ["-c", 'ulimit -f 1024 && exec "$0" --import tsx --input-type=module -e "$1"', process.execPath, script], { encoding: "utf8" });
  assert.match(res.stdout, /failed: (short write at|EFBIG)/, res.stdout + res.stderr);
  assert.not.ok(existsSync(target));
});

ranges.run();
