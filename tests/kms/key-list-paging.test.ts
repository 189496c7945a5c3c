import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { KmsClient } from "@mc/kms/client";
import { createFixture, runKms, type KmsFixture, type RunningKms } from "./kms-harness.js";

// Issue 26: `key list` of a large keyspace is paged by continue_at, and an
// unlimited list streams instead of building one body.
const paging = suite<{ fx?: KmsFixture; kms?: RunningKms; c?: KmsClient; names: string[] }>("kms key list paging", { names: [] });
const count = 2500;

paging.before(async (ctx) => {
  ctx.fx = await createFixture();
  ctx.kms = await runKms(ctx.fx);
  const c = await ctx.kms.client();
  ctx.c = c;
  // Created out of order: the answers must come sorted all the same.
  const names = Array.from({ length: count }, (_, i) => `tenant-${String((i * 7919) % count).padStart(4, "0")}`);
  for (let i = 0; i < names.length; i += 100) await Promise.all(names.slice(i, i + 100).map((n) => c.call("POST", `/v1/key/create/${n}`)));
  await c.call("POST", "/v1/key/create/other-key");
  ctx.names = [...names].sort();
});
paging.after(async (ctx) => {
  ctx.c?.close();
  await ctx.kms?.proc.stop();
  await ctx.fx?.cleanup();
});

async function listPage(c: KmsClient, pattern: string, query: string): Promise<{ names: string[]; continue_at: string }> {
  return c.call("GET", `/v1/key/list/${pattern}${query}`);
}

paging("should walk a prefix in pages of `limit` with continue_at, each name once and in order", async ({ c, names }) => {
  if (!c) throw new Error("no client");
  const walked: string[] = [];
  const cursors: string[] = [];
  let at = "";
  do {
    const page = await listPage(c, "tenant-*", `?limit=700${at === "" ? "" : `&continue_at=${encodeURIComponent(at)}`}`);
    assert.ok(page.names.length <= 700);
    walked.push(...page.names);
    at = page.continue_at;
    cursors.push(at);
  } while (at !== "");
  assert.equal(walked, names);
  // The cursor is the first name of the next page.
  assert.equal(cursors, ["tenant-0700", "tenant-1400", "tenant-2100", ""]);
  const tail = await listPage(c, "tenant-24*", "?limit=30&continue_at=tenant-2480");
  assert.equal(tail, { names: names.filter((n) => n >= "tenant-2480"), continue_at: "" });
});

paging("should stream an unlimited list of many names (no one body), with the contract's bytes", async ({ c, names }) => {
  if (!c) throw new Error("no client");
  const res = await c.send("GET", "/v1/key/list/tenant-*");
  assert.is(res.status, 200);
  assert.is(res.headers["content-length"], undefined, "one body of every name");
  assert.is(res.headers["transfer-encoding"], "chunked");
  assert.match(String(res.headers["content-type"]), /^application\/json/);
  assert.is(res.body.toString(), JSON.stringify({ names, continue_at: "" }));
  const all = JSON.parse((await c.send("GET", "/v1/key/list/*")).body.toString()) as { names: string[] };
  assert.equal(all.names, [...names, "other-key"].sort());
});

paging("should answer a short list in one body, as before", async ({ c, names }) => {
  if (!c) throw new Error("no client");
  const res = await c.send("GET", "/v1/key/list/tenant-00*");
  const expected = JSON.stringify({ names: names.filter((n) => n.startsWith("tenant-00")), continue_at: "" });
  assert.is(res.headers["content-length"], String(Buffer.byteLength(expected)));
  assert.is(res.body.toString(), expected);
  const exact = await c.send("GET", "/v1/key/list/other-key");
  assert.is(exact.body.toString(), '{"names":["other-key"],"continue_at":""}');
});

paging.run();
