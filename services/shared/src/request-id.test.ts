import { suite } from "uvu";
import * as assert from "uvu/assert";
import { acceptRequestId, createRequestIds, requestIdOptions } from "./request-id.js";

const ids = suite("request ids");

ids("keeps a safe caller id and replaces a missing, long or odd one", () => {
  assert.is(acceptRequestId("abc-1.2:3_x"), "abc-1.2:3_x");
  for (const bad of [undefined, null, "", "a b", "x".repeat(129), "a\nb", "ü"]) assert.match(acceptRequestId(bad), /^[0-9a-f-]{36}$/);
});

ids("new ids are UUID-shaped and never repeat within a process", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 100_000; i++) {
    const id = acceptRequestId(undefined);
    assert.ok(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id), id);
    seen.add(id);
  }
  assert.is(seen.size, 100_000);
});

ids("the counter counts on from its start in 12 hex digits, across the halves it is kept in and past 2^48", () => {
  const counterOf = (id: string): bigint => BigInt(`0x${id.slice(2)}`);
  for (const start of [0, 2 ** 24 - 2, 2 ** 24 - 1, 2 ** 32 - 1, 0xabcdef123456, 2 ** 48 - 2, 2 ** 48 - 1]) {
    const next = createRequestIds("p-", start);
    for (let k = 1n; k <= 3n; k++) {
      const id = next();
      assert.match(id, /^p-[0-9a-f]{12}$/);
      assert.is(counterOf(id), (BigInt(start) + k) % 2n ** 48n, `start ${start}, step ${k}: ${id}`);
    }
  }
  assert.is(createRequestIds("p-", 2 ** 24 - 1)(), "p-000001000000");
});

ids("builds call options only for an id", () => {
  assert.equal(requestIdOptions("r1"), { headers: { "x-request-id": "r1" } });
  assert.equal(requestIdOptions(undefined), {});
  assert.equal(requestIdOptions(""), {});
});

ids.run();
