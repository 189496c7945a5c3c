import { suite } from "uvu";
import * as assert from "uvu/assert";
import { acceptRequestId, requestIdOptions } from "./request-id.js";

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

ids("builds call options only for an id", () => {
  assert.equal(requestIdOptions("r1"), { headers: { "x-request-id": "r1" } });
  assert.equal(requestIdOptions(undefined), {});
  assert.equal(requestIdOptions(""), {});
});

ids.run();
