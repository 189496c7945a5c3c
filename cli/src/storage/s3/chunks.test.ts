import { Readable } from "node:stream";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { chunks } from "./chunks.js";
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
