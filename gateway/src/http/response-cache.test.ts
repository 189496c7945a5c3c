import { suite } from "uvu";
import * as assert from "uvu/assert";
import { isAppError } from "@mc/shared/errors";
import { createResponseCache, type CachedResponse } from "./response-cache.js";
import { generated } from "./send-generated.js";

type Made = Omit<CachedResponse, "storedAt">;
const made = (body: string, catalogVersion?: string): Made => ({ ...generated(body, "text/plain", undefined), ...(catalogVersion ? { catalogVersion } : {}) });
const hotOf = (from: CachedResponse) => ({ status: from.status, headers: { ...from.headers }, body: from.body, storedAt: from.storedAt, head: "" });

const v1 = "5.0000000a";
const v2 = "6.00000001";
const halfA = "7.000000aa";
const halfB = "7.000000bb";

const cache = suite("response cache: catalog versions");

cache("should follow newer versions only: a newer one drops everything, an older one is refused and changes nothing", async () => {
  const c = createResponseCache();
  assert.ok(c.observe(v1));
  await c.get("k", async () => made("one", v1));
  assert.ok(c.observe(v2), "newer");
  assert.is(c.catalogVersion(), v2);
  let calls = 0;
  await c.get("k", async () => (calls++, made("two", v2)));
  assert.is(calls, 1, "the v1 answer was dropped");
  assert.not.ok(c.observe(v1), "older is refused");
  assert.is(c.catalogVersion(), v2);
  await c.get("k", async () => (calls++, made("again", v2)));
  assert.is(calls, 1, "an older version dropped nothing");
  assert.ok(c.observe("not a version"), "unparseable: ignored");
  assert.is(c.catalogVersion(), v2);
});

cache("should never flip between two versions of equal count (two half-seen racing publishes): it keeps the greater, whichever comes first", () => {
  for (const order of [[halfA, halfB], [halfB, halfA]]) {
    const c = createResponseCache();
    c.observe(v2);
    for (let round = 0; round < 3; round++) for (const v of order) c.observe(v);
    assert.is(c.catalogVersion(), halfB, `shown ${order.join(" then ")}`);
    assert.not.ok(c.observe(halfA));
  }
});

cache("should make an answer again while the service answers from an older catalog, and keep only the current one", async () => {
  const c = createResponseCache();
  c.observe(v2);
  const answers = [made("old", v1), made("old", v1), made("new", v2)];
  let calls = 0;
  const got = await c.get("k", async () => answers[calls++] ?? made("late", v2));
  assert.is(got.body.toString(), "new");
  assert.is(calls, 3);
  assert.is((await c.get("k", async () => made("never", v2))).body.toString(), "new", "stored");
});

cache("should fail (unavailable) rather than answer or keep an older catalog's answer when the service never catches up", async () => {
  const c = createResponseCache();
  c.observe(v2);
  let calls = 0;
  const err = await c.get("k", async () => (calls++, made("old", v1))).then(() => undefined, (e: unknown) => e);
  assert.ok(isAppError(err) && err.reason === "unavailable", String(err));
  assert.ok(calls > 1, "asked again first");
  assert.is(c.catalogVersion(), v2, "never went back");
  assert.is((await c.get("k", async () => made("new", v2))).body.toString(), "new", "nothing old was stored");
});

cache("should not store or return an answer whose making spanned a newer catalog being seen: it is made again", async () => {
  const c = createResponseCache();
  c.observe(v1);
  let release: (m: Made) => void = () => undefined;
  let calls = 0;
  const first = c.get("k", () => (++calls === 1 ? new Promise<Made>((resolve) => (release = resolve)) : Promise.resolve(made("v2 answer", v2))));
  await Promise.resolve();
  c.observe(v2);
  release(made("v1 answer", v1));
  assert.is((await first).body.toString(), "v2 answer");
  assert.is(calls, 2);
  assert.is((await c.get("k", async () => made("never", v2))).body.toString(), "v2 answer", "the current answer was stored");
});

const hot = suite("response cache: the hot path");

hot("should remember an answer for the hot path only while the response it came from is current", async () => {
  const c = createResponseCache();
  c.observe(v1);
  const from = await c.get("k", async () => made("one", v1));
  c.remember("h", hotOf(from), from);
  assert.ok(c.hot("h"), "current: remembered");
  c.observe(v2);
  assert.is(c.hot("h"), undefined, "dropped with its catalog");
  c.remember("h", hotOf(from), from);
  assert.is(c.hot("h"), undefined, "a response of an older catalog is never remembered");
  const fresh = await c.get("k", async () => made("two", v2));
  c.invalidate();
  c.remember("h", hotOf(fresh), fresh);
  assert.is(c.hot("h"), undefined, "nor one made before an invalidation");
});

hot("should expire hot answers with their entry's time", async () => {
  let now = 1000;
  const c = createResponseCache({ ttlMs: 100, now: () => now });
  const from = await c.get("k", async () => made("one"));
  c.remember("h", hotOf(from), from);
  assert.ok(c.hot("h"));
  assert.ok(c.hot("h", 1099), "fresh at the caller's reading of the clock");
  assert.is(c.hot("h", 1100), undefined, "expired at the caller's reading, whatever the cache's clock says");
  c.remember("h", hotOf(from), from);
  now += 100;
  assert.is(c.hot("h"), undefined);
});

cache.run();
hot.run();
