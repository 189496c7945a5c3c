import type { FileHandle } from "node:fs/promises";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createBufferPool, createFileRangeSink } from "./range-sink.js";

const sink = suite("a range's sink into a file");

/** A file handle whose writes wait until released, recording where they went. */
function heldFile() {
  const writes: Array<{ at: number; bytes: number; release(err?: Error): void }> = [];
  const handle = {
    write(_data: Buffer, _from: number, bytes: number, at: number): Promise<{ bytesWritten: number }> {
      return new Promise((resolve, reject) => writes.push({ at, bytes, release: (err) => (err ? reject(err) : resolve({ bytesWritten: bytes })) }));
    },
  };
  return { handle: handle as unknown as FileHandle, writes };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

sink("should write full buffers at their offsets and ask the source to wait with two writes in flight", async () => {
  const { handle, writes } = heldFile();
  const written: number[] = [];
  const s = createFileRangeSink(handle, 1000, createBufferPool(10), (n) => written.push(n));
  assert.is(s.room().length, 10);
  assert.is(s.put(4), undefined);
  assert.is(s.room().length, 6);
  assert.is(s.put(6), undefined, "one write in flight: go on");
  const wait = s.put(10);
  assert.ok(wait, "two writes in flight: wait");
  assert.equal(
    writes.map((w) => [w.at, w.bytes]),
    [
      [1000, 10],
      [1010, 10],
    ],
  );
  let resumed = false;
  void wait?.then(() => (resumed = true));
  await tick();
  assert.not.ok(resumed);
  writes[0]?.release();
  await tick();
  assert.ok(resumed, "a finished write lets the source go on");
  s.put(3);
  const closed = s.close();
  assert.equal(writes[2] && [writes[2].at, writes[2].bytes], [1020, 3], "close writes the partial buffer");
  writes[1]?.release();
  writes[2]?.release();
  assert.is(await closed, 23);
  assert.equal(written, [10, 10, 3]);
});

sink("should fail the source's next wait and the close when a write fails", async () => {
  const { handle, writes } = heldFile();
  const s = createFileRangeSink(handle, 0, createBufferPool(4), () => undefined);
  s.put(4);
  const wait = s.put(4);
  assert.ok(wait);
  writes[0]?.release(new Error("EIO: i/o error, write"));
  let failed = "";
  await wait?.catch((err: unknown) => (failed = String(err)));
  assert.match(failed, /EIO/);
  writes[1]?.release();
  let closeFailed = "";
  await s.close().catch((err: unknown) => (closeFailed = String(err)));
  assert.match(closeFailed, /EIO/);
});

sink("should reuse a written buffer for the next range instead of allocating", async () => {
  const { handle, writes } = heldFile();
  const pool = createBufferPool(8);
  const first = createFileRangeSink(handle, 0, pool, () => undefined);
  const room = first.room();
  first.put(8);
  const closed = first.close();
  for (const w of writes) w.release();
  await closed;
  const second = createFileRangeSink(handle, 8, pool, () => undefined);
  // The pool gives back the last buffer returned: the full one written first, or the empty one close() gave back.
  assert.ok([room.buffer, first.room().buffer].includes(second.room().buffer), "a fresh buffer was allocated");
});

sink.run();
