import { suite } from "uvu";
import * as assert from "uvu/assert";
import { acceptRequestId, currentRequestId, withRequestId } from "./request-id.js";

const ids = suite("request ids");

ids("keeps a safe caller id and replaces a missing, long or odd one", () => {
  assert.is(acceptRequestId("abc-1.2:3_x"), "abc-1.2:3_x");
  for (const bad of [undefined, null, "", "a b", "x".repeat(129), "a\nb", "ü"]) assert.match(acceptRequestId(bad), /^[0-9a-f-]{36}$/);
});

ids("is current across awaits inside withRequestId and absent outside", async () => {
  assert.is(currentRequestId(), undefined);
  const seen = await withRequestId("r1", async () => {
    await new Promise((r) => setTimeout(r, 1));
    return currentRequestId();
  });
  assert.is(seen, "r1");
  assert.is(currentRequestId(), undefined);
});

ids.run();
