import { test } from "uvu";
import * as assert from "uvu/assert";
import { createStreamHalt } from "./stream-halt.js";

const piece = (n: number): Uint8Array => new Uint8Array([n]);

async function* counted(n: number, fail?: Error): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < n; i++) yield piece(i);
  if (fail) throw fail;
}

test("a guarded stream yields every piece and drops its stop signal when it ends, however it ends", async () => {
  const halt = createStreamHalt();
  const got: number[] = [];
  for await (const p of halt.guard(counted(1000), () => true)) got.push(p[0] ?? -1);
  assert.is(got.length, 1000);
  assert.is(halt.active, 0, "a finished stream still holds its stop signal");

  let failed = "";
  try {
    for await (const _ of halt.guard(counted(3, new Error("encoder failed")), () => true)) void _;
  } catch (err) {
    failed = String(err);
  }
  assert.match(failed, /encoder failed/);
  assert.is(halt.active, 0);

  for await (const _ of halt.guard(counted(10), () => true)) break;
  assert.is(halt.active, 0, "a stream its reader left");
});

test("a halt ends a stream waiting for a piece that never comes, and the producer with it", async () => {
  const halt = createStreamHalt();
  let returned = false;
  const stalled: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: () => new Promise<IteratorResult<Uint8Array>>(() => undefined),
      return: () => {
        returned = true;
        return Promise.resolve({ done: true, value: undefined });
      },
    }),
  };
  let running = true;
  const reading = (async () => {
    for await (const _ of halt.guard(stalled, () => running)) void _;
  })();
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.is(halt.active, 1);
  running = false;
  halt.halt();
  let failed = "";
  await reading.catch((err: unknown) => (failed = String(err)));
  assert.match(failed, /consensus node stopped/);
  assert.ok(returned, "the producer was not ended");
  assert.is(halt.active, 0);
});

test("a stream guarded after the node stopped throws at its first piece and holds nothing", async () => {
  const halt = createStreamHalt();
  let asked = 0;
  async function* source(): AsyncGenerator<Uint8Array> {
    asked++;
    yield piece(1);
  }
  let failed = "";
  try {
    for await (const _ of halt.guard(source(), () => false)) void _;
  } catch (err) {
    failed = String(err);
  }
  assert.match(failed, /consensus node stopped/);
  assert.is(halt.active, 0);
  assert.ok(asked <= 1);
});

test.run();
