import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
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

ranges.run();
