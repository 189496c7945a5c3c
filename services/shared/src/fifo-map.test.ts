import { test } from "uvu";
import * as assert from "uvu/assert";
import { createFifoMap } from "./fifo-map.js";

test("holds at most its limit and forgets the oldest first", () => {
  const m = createFifoMap<number, string>(3);
  for (let i = 0; i < 10; i++) m.set(i, `v${i}`);
  assert.is(m.size, 3);
  assert.equal([...m.keys()], [7, 8, 9]);
  assert.is(m.get(6), undefined);
  assert.is(m.get(9), "v9");
});

test("a key set again keeps its place; deleted and added again, it goes last", () => {
  const m = createFifoMap<string, number>(3);
  m.set("a", 1);
  m.set("b", 2);
  m.set("a", 3);
  m.set("c", 4);
  m.set("d", 5);
  assert.equal([...m.keys()], ["b", "c", "d"], "a kept its first place and went first");
  m.delete("c");
  m.set("c", 6);
  m.set("e", 7);
  assert.equal([...m.keys()], ["d", "c", "e"], "the re-added c is newer than d");
  m.set("f", 8);
  assert.equal([...m.keys()], ["c", "e", "f"]);
  assert.is(m.get("c"), 6);
});

test("stale places never evict a live entry, through many deletes and compactions", () => {
  const m = createFifoMap<number, number>(50);
  const model = new Map<number, number>();
  let seed = 7;
  const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  for (let step = 0; step < 20000; step++) {
    const key = rnd(120);
    if (rnd(3) === 0) {
      assert.is(m.delete(key), model.delete(key));
    } else {
      if (model.has(key)) model.set(key, step);
      else {
        model.set(key, step);
        if (model.size > 50) model.delete(model.keys().next().value as number);
      }
      m.set(key, step);
    }
    assert.is(m.size, model.size);
  }
  assert.equal([...m.keys()], [...model.keys()]);
  for (const [k, v] of model) assert.is(m.get(k), v);
  m.clear();
  assert.is(m.size, 0);
  m.set(1, 1);
  assert.equal([...m.keys()], [1]);
});

test("refuses a limit below one", () => {
  assert.throws(() => createFifoMap(0), /at least one/);
});

test.run();
