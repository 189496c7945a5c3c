import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createForwardBatcher } from "./forward-batcher.js";
import type { ForwardClient } from "./forward-service.js";

const batcher = suite("forward batcher");

function fakeForward(fail = false) {
  const calls: number[][] = [];
  let next = 10;
  let release: () => void = () => undefined;
  let gate = new Promise<void>((r) => (release = r));
  const client: ForwardClient = {
    async proposeBatch(_leader, _from, batch) {
      calls.push(batch.map((d) => d[0] ?? -1));
      await gate;
      gate = new Promise<void>((r) => (release = r));
      if (fail) throw new Error("no leader");
      return { indexes: batch.map(() => next++), term: 3 };
    },
    propose: () => Promise.reject(new Error("unused")),
    readIndex: () => Promise.reject(new Error("unused")),
    changeMembership: () => Promise.reject(new Error("unused")),
    transferLeadership: () => Promise.reject(new Error("unused")),
  };
  return { client, calls, release: () => release() };
}

batcher("sends one call at a time and batches what arrives meanwhile, answering each with its own index", async () => {
  const f = fakeForward();
  const b = createForwardBatcher(f.client, "n2");
  const first = b.propose("n1", new Uint8Array([1]), 1000);
  const rest = [2, 3, 4].map((v) => b.propose("n1", new Uint8Array([v]), 1000));
  assert.equal(f.calls, [[1]]);
  f.release();
  assert.equal(await first, { index: 10, term: 3 });
  await new Promise((r) => setImmediate(r));
  assert.equal(f.calls, [[1], [2, 3, 4]]);
  f.release();
  assert.equal((await Promise.all(rest)).map((r) => r.index), [11, 12, 13]);
});

batcher("fails every command of a failed call with its error", async () => {
  const f = fakeForward(true);
  const b = createForwardBatcher(f.client, "n2");
  const all = [1, 2].map((v) => b.propose("n1", new Uint8Array([v]), 1000).then(() => "ok", (e: Error) => e.message));
  f.release();
  await new Promise((r) => setImmediate(r));
  f.release();
  assert.equal(await Promise.all(all), ["no leader", "no leader"]);
});

batcher.run();
