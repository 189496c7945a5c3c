import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createAuthLease } from "./auth-lease.js";

/** A fake clock and a barrier the test completes by hand. */
function rig(leaseMs = 1000) {
  let t = 0;
  const pending: (() => void)[] = [];
  const slept: number[] = [];
  const lease = createAuthLease({
    now: () => t,
    sleep: async (ms) => void slept.push(ms),
    barrier: () => new Promise<void>((resolve) => pending.push(resolve)),
    leaseMs,
  });
  const settle = () => new Promise((r) => setImmediate(r));
  return { lease, pending, slept, settle, at: (ms: number) => (t = ms) };
}

const test = suite("kms domain: authorisation lease");

test("no lease yet: the first request waits for a barrier; within the lease none does", async () => {
  const r = rig();
  const first = r.lease.ensure();
  assert.ok(first);
  assert.is(r.pending.length, 1);
  r.pending.shift()?.();
  await first;
  r.at(400);
  assert.is(r.lease.ensure(), undefined);
  assert.is(r.pending.length, 0, "more than half the lease left: no renewal");
});

test("past half the lease a request is served at once and one renewal starts in the background", async () => {
  const r = rig();
  const first = r.lease.ensure();
  r.pending.shift()?.();
  await first;
  r.at(600);
  assert.is(r.lease.ensure(), undefined);
  assert.is(r.lease.ensure(), undefined);
  assert.is(r.pending.length, 1, "one shared renewal");
  r.pending.shift()?.();
  await r.settle();
  r.at(1500);
  assert.is(r.lease.ensure(), undefined, "renewed from 600: valid until 1600");
});

test("a shared barrier that started before the request arrived does not count once the lease it gives has run out", async () => {
  const r = rig();
  const early = r.lease.ensure();
  assert.ok(early);
  // The barrier started at 0 answers only at 1200 (a revocation may have been answered meanwhile).
  r.at(1100);
  const late = r.lease.ensure();
  assert.ok(late);
  assert.is(r.pending.length, 1, "joins the running barrier");
  r.at(1200);
  r.pending.shift()?.();
  await early;
  await r.settle();
  assert.is(r.pending.length, 1, "the request that arrived at 1100 needs a barrier started after 0 + 1000");
  let done = false;
  void late.then(() => (done = true));
  await r.settle();
  assert.not.ok(done);
  r.pending.shift()?.();
  await late;
});

test("a failed barrier fails the request and the next one tries again", async () => {
  let fail = true;
  let calls = 0;
  const lease = createAuthLease({
    now: () => 0,
    sleep: async () => undefined,
    barrier: async () => {
      calls++;
      if (fail) throw new Error("cluster has no leader");
    },
    leaseMs: 1000,
  });
  const failed = await (lease.ensure() ?? Promise.resolve()).then(() => "", (err: unknown) => String(err));
  assert.match(failed, /no leader/);
  fail = false;
  await lease.ensure();
  assert.is(calls, 2);
  assert.is(lease.ensure(), undefined);
});

test("a revocation is answered after the lease plus a margin for clock rates", async () => {
  const r = rig(1000);
  await r.lease.afterRevocation();
  assert.equal(r.slept, [1120]);
  assert.ok(r.lease.waitMs > 1000 * 1.02 ** 2);
});

test("a read's own barrier renews the lease", async () => {
  const r = rig();
  r.at(50);
  const read = r.lease.barrier();
  r.pending.shift()?.();
  await read;
  r.at(1000);
  assert.is(r.lease.ensure(), undefined);
});

test.run();
