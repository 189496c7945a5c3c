import { Readable } from "node:stream";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { chunks, createPartBuffers } from "./chunks.js";
import { isRetryable, withRetry } from "./retry.js";

const parts = suite("part splitting");

parts("should cut a stream into parts of exactly the part size", async () => {
  const source = Readable.from([Buffer.alloc(7, 1), Buffer.alloc(7, 2), Buffer.alloc(3, 3)]);
  const sizes: number[] = [];
  for await (const part of chunks(source, 5)) sizes.push(part.length);
  assert.equal(sizes, [5, 5, 5, 2]);
});

parts("should yield nothing for an empty stream", async () => {
  const out: Buffer[] = [];
  for await (const part of chunks(Readable.from([]), 5)) out.push(part);
  assert.is(out.length, 0);
});

parts("should keep every byte in order across chunk and part boundaries", async () => {
  const input = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
  const pieces = [3, 97, 1, 250, 149, 500].reduce<{ at: number; out: Buffer[] }>((acc, n) => ({ at: acc.at + n, out: [...acc.out, input.subarray(acc.at, acc.at + n)] }), { at: 0, out: [] }).out;
  const out: Buffer[] = [];
  for await (const part of chunks(Readable.from(pieces), 64)) out.push(Buffer.from(part));
  assert.ok(Buffer.concat(out).equals(input));
  assert.equal(out.map((p) => p.length).slice(-2), [64, 1000 % 64]);
});

parts("should fill a released part's buffer again, and never one still held", async () => {
  const buffers = createPartBuffers();
  const source = Readable.from([Buffer.alloc(5, 1), Buffer.alloc(5, 2), Buffer.alloc(5, 3), Buffer.alloc(5, 4)]);
  const seen: Buffer[] = [];
  for await (const part of chunks(source, 5, buffers)) {
    assert.ok(!seen.slice(-1).some((held) => held.buffer === part.buffer), "a held part's buffer was filled again");
    // The part before the previous one is released: the one after the next may reuse it.
    if (seen.length >= 1) buffers.release(seen[seen.length - 1] as Buffer);
    seen.push(part);
    assert.equal([...part], Array(5).fill(seen.length));
  }
  assert.ok(new Set(seen.map((p) => p.buffer)).size < seen.length, "no buffer was reused");
});

/** A source of `total` bytes (byte i is i % 251) that counts its reads and whether it was closed. */
function directSource(total: number, maxRead: number) {
  let position = 0;
  const stats = { reads: 0, streamed: 0, destroyed: false };
  const stream = new Readable({
    read() {
      stats.streamed++;
      this.push(null);
    },
    destroy(err, cb) {
      stats.destroyed = true;
      cb(err);
    },
  });
  const readInto = async (buffer: Buffer, offset: number, length: number): Promise<number> => {
    stats.reads++;
    const n = Math.min(length, maxRead, total - position);
    for (let i = 0; i < n; i++) buffer[offset + i] = (position + i) % 251;
    position += n;
    return n;
  };
  return { source: Object.assign(stream, { readInto }), stats };
}

parts("should fill parts straight from a direct source, short reads included, and close it", async () => {
  const { source, stats } = directSource(23, 4);
  const out: Buffer[] = [];
  for await (const part of chunks(source, 10)) out.push(Buffer.from(part));
  assert.equal(out.map((p) => p.length), [10, 10, 3]);
  assert.equal([...Buffer.concat(out)], Array.from({ length: 23 }, (_, i) => i % 251));
  assert.is(stats.streamed, 0, "the stream was read instead of readInto");
  assert.ok(stats.destroyed, "the source was left open");
});

parts("should yield nothing for an empty direct source, and close a source stopped early", async () => {
  const empty = directSource(0, 4);
  for await (const part of chunks(empty.source, 10)) assert.unreachable(`got ${part.length} bytes`);
  assert.ok(empty.stats.destroyed);
  const big = directSource(100, 100);
  for await (const part of chunks(big.source, 10)) {
    assert.is(part.length, 10);
    break;
  }
  assert.ok(big.stats.destroyed, "a source stopped early was left open");
  assert.is(big.stats.reads, 1);
});

parts.run();

// ---

const retry = suite("retries with backoff");

retry("should retry 5xx and connection resets, not 4xx", () => {
  assert.ok(isRetryable(Object.assign(new Error("x"), { code: "InternalError" })));
  assert.ok(isRetryable(Object.assign(new Error("x"), { code: "ECONNRESET" })));
  assert.not.ok(isRetryable(Object.assign(new Error("x"), { code: "NoSuchKey" })));
});

retry("should succeed after transient failures", async () => {
  let calls = 0;
  const value = await withRetry(
    async () => {
      calls++;
      if (calls < 3) throw Object.assign(new Error("busy"), { code: "SlowDown" });
      return 42;
    },
    { baseMs: 1 },
  );
  assert.is(value, 42);
  assert.is(calls, 3);
});

retry.run();
