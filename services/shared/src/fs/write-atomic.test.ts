import { mkdtemp, open, readdir, readFile, rm, type FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { writeFileAtomic } from "./write-atomic.js";

const atomic = suite("writeFileAtomic");
let dir = "";
const mib = 2 ** 20;

atomic.before(async () => {
  dir = await mkdtemp(join(tmpdir(), "write-atomic-"));
});
atomic.after(() => rm(dir, { recursive: true, force: true }));

async function* pieces(count: number, size: number, failAt = -1): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < count; i++) {
    if (i === failAt) throw new Error("source failed");
    yield new Uint8Array(size).fill(i);
  }
}

/** Counts fdatasync calls on every FileHandle while `run` runs. */
async function countingDatasyncs(run: () => Promise<void>): Promise<number> {
  const probe = await open(join(dir, "probe"), "w");
  const proto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const real = proto.datasync;
  let count = 0;
  proto.datasync = function (this: FileHandle) {
    count++;
    return real.call(this);
  };
  try {
    await run();
  } finally {
    proto.datasync = real;
    await rm(join(dir, "probe"));
  }
  return count;
}

atomic("should write streamed pieces whole under the name, nothing beside it", async () => {
  await writeFileAtomic(join(dir, "a.bin"), pieces(3, 1000));
  const got = await readFile(join(dir, "a.bin"));
  assert.is(got.length, 3000);
  assert.is(got[2999], 2);
  assert.equal(await readdir(dir), ["a.bin"]);
});

atomic("should keep the old file and leave no temp file when the stream fails", async () => {
  await writeFileAtomic(join(dir, "b.bin"), "old");
  let failed = "";
  await writeFileAtomic(join(dir, "b.bin"), pieces(4, 1000, 2)).catch((err: unknown) => (failed = String(err)));
  assert.match(failed, /source failed/);
  assert.is(await readFile(join(dir, "b.bin"), "utf8"), "old");
  assert.equal((await readdir(dir)).sort(), ["a.bin", "b.bin"]);
});

// A log fsyncing beside a large streamed file must never wait for all its pages (issue 26).
atomic("should sync streamed data every MiB by default, or as asked", async () => {
  const byDefault = await countingDatasyncs(() => writeFileAtomic(join(dir, "c.bin"), pieces(8, mib / 2)));
  assert.is(byDefault, 4);
  const asked = await countingDatasyncs(() => writeFileAtomic(join(dir, "c.bin"), pieces(8, mib / 2), 0o644, { syncEveryBytes: 2 * mib }));
  assert.is(asked, 2);
});

atomic.run();
