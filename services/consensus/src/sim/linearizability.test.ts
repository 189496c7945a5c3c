import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkOperations, kvModel, type KvInput, type KvOutput, type Operation } from "./linearizability.js";

type Op = Operation<KvInput, KvOutput>;
const put = (clientId: number, key: string, value: string, call: number, ret: number): Op => ({ clientId, input: { op: "put", key, value }, call, output: { value: "" }, return: ret });
const get = (clientId: number, key: string, value: string, call: number, ret: number): Op => ({ clientId, input: { op: "get", key }, call, output: { value }, return: ret });
const lost = (clientId: number, key: string, value: string, call: number): Op => ({ clientId, input: { op: "put", key, value }, call, output: undefined, return: Infinity });

test("sequential history is linearizable", () => {
  assert.is(checkOperations(kvModel, [put(0, "x", "1", 0, 1), get(1, "x", "1", 2, 3), put(0, "x", "2", 4, 5), get(1, "x", "2", 6, 7)]), "ok");
});

test("concurrent put may be seen before it returns", () => {
  assert.is(checkOperations(kvModel, [put(0, "x", "1", 0, 10), get(1, "x", "1", 1, 2), get(2, "x", "1", 3, 4)]), "ok");
});

test("stale read after a completed write is not linearizable", () => {
  assert.is(checkOperations(kvModel, [put(0, "x", "1", 0, 1), put(0, "x", "2", 2, 3), get(1, "x", "1", 4, 5)]), "illegal");
});

test("reading a value never written is not linearizable", () => {
  assert.is(checkOperations(kvModel, [put(0, "x", "1", 0, 1), get(1, "x", "7", 2, 3)]), "illegal");
});

test("two readers seeing writes in opposite orders is not linearizable", () => {
  const ops = [
    put(0, "x", "a", 0, 10),
    put(1, "x", "b", 0, 10),
    get(2, "x", "a", 1, 2),
    get(2, "x", "b", 3, 4),
    get(3, "x", "b", 1, 2),
    get(3, "x", "a", 3, 4),
  ];
  assert.is(checkOperations(kvModel, ops), "illegal");
});

test("a value flip-flop back to an overwritten value is not linearizable", () => {
  const ops = [put(0, "x", "1", 0, 1), put(1, "x", "2", 0, 5), get(2, "x", "2", 2, 3), get(2, "x", "1", 6, 7)];
  assert.is(checkOperations(kvModel, ops), "illegal");
});

test("an unknown-outcome put may take effect late, or never", () => {
  assert.is(checkOperations(kvModel, [lost(0, "x", "1", 0), get(1, "x", "", 5, 6), get(1, "x", "1", 50, 51)]), "ok");
  assert.is(checkOperations(kvModel, [lost(0, "x", "1", 0), get(1, "x", "", 5, 6)]), "ok");
  // ...but not before it was invoked.
  assert.is(checkOperations(kvModel, [get(1, "x", "1", 0, 1), lost(0, "x", "1", 5)]), "illegal");
});

test("keys are checked independently and every key must pass", () => {
  const ops = [put(0, "x", "1", 0, 1), put(0, "y", "1", 0, 1), get(1, "x", "1", 2, 3), get(1, "y", "", 2, 3)];
  assert.is(checkOperations(kvModel, ops), "illegal");
  assert.is(checkOperations(kvModel, ops.slice(0, 3)), "ok");
});

test("a larger random sequential history passes and the step budget yields unknown", () => {
  const ops: Op[] = [];
  let value = "";
  for (let i = 0; i < 200; i++) {
    if (i % 3 === 0) ops.push(get(i % 4, "k", value, i * 10, i * 10 + 15));
    else {
      value = String(i);
      ops.push(put(i % 4, "k", value, i * 10, i * 10 + 5));
    }
  }
  assert.is(checkOperations(kvModel, ops), "ok");
  const concurrent = Array.from({ length: 14 }, (_, i) => put(i, "z", String(i), 0, 100)).concat([get(99, "z", "nope", 101, 102)]);
  assert.is(checkOperations(kvModel, concurrent, 1000), "unknown");
});

test.run();
