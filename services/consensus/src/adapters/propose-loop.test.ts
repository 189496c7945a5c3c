import { suite } from "uvu";
import * as assert from "uvu/assert";
import { AppError } from "@mc/shared/errors";
import { createLeaderWatch } from "./leader-watch.js";
import { createProposeLoop, type ProposeLoopDeps } from "./propose-loop.js";
import { createStateSignal } from "./state-signal.js";
import type { AppliedEntry } from "./waiters.js";

const test = suite("propose loop: honest outcomes and re-forwarding");
// The state signal's timers are unref'd (a runner's tick keeps its process alive); stand in for it.
let keepAlive: NodeJS.Timeout | undefined;
test.before(() => {
  keepAlive = setInterval(() => undefined, 1000);
});
test.after(() => clearInterval(keepAlive));
const cmd = new Uint8Array([1]);
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** A follower "me" whose view of the leader the test sets; forwards are scripted per leader. */
function harness(script: (leader: string, attempt: number) => Promise<{ index: number; term: number }>) {
  let leader = "";
  const changed = createStateSignal();
  const leaders = createLeaderWatch();
  const forwards: string[] = [];
  const logged: string[] = [];
  const setLeader = (id: string): void => {
    leader = id;
    leaders.observe(id);
    changed.notify();
  };
  const deps: ProposeLoopDeps = {
    id: "me", electionMs: 30, tickMs: 2, changed, leaders,
    leaderNow: () => leader,
    local: () => Promise.reject(new Error("not used")),
    forward: (to) => {
      forwards.push(to);
      return script(to, forwards.length);
    },
    applied: (index, term): Promise<AppliedEntry> => Promise.resolve({ index, term, result: "ok" }),
    log: (line) => logged.push(line),
  };
  return { propose: createProposeLoop(deps), setLeader, forwards, logged };
}

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    assert.instance(err, AppError);
    return err as AppError;
  }
  throw new Error("expected a failure");
}

test("a write waiting on a lost leader goes to the new one at once, not after its timer", async () => {
  const h = harness((to) => (to === "old" ? never() : Promise.resolve({ index: 7, term: 2 })));
  h.setLeader("old");
  const started = Date.now();
  const done = h.propose(cmd, { timeoutMs: 5000, repeatable: true });
  setTimeout(() => h.setLeader("new"), 20);
  assert.equal(await done, { index: 7, term: 2, result: "ok" });
  assert.equal(h.forwards, ["old", "new"]);
  assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
});

test("without repeatable, a write stays with its leader (it may be appended there)", async () => {
  const h = harness((to) => (to === "old" ? new Promise((r) => setTimeout(() => r({ index: 3, term: 1 }), 60)) : never()));
  h.setLeader("old");
  const done = h.propose(cmd, { timeoutMs: 5000, repeatable: false });
  setTimeout(() => h.setLeader("new"), 10);
  assert.equal(await done, { index: 3, term: 1, result: "ok" });
  assert.equal(h.forwards, ["old"]);
});

test("a refusal before any append is retried, and ends as 503 'cluster has no leader'", async () => {
  const h = harness(() => Promise.reject(new AppError("unavailable", "not the leader")));
  h.setLeader("l");
  const err = await failure(h.propose(cmd, { timeoutMs: 150, repeatable: true }));
  assert.is(err.reason, "unavailable");
  assert.is(err.message, "cluster has no leader");
  assert.ok(h.forwards.length > 1, "retried");
});

test("a write that may have been applied ends as 504 saying the outcome is unknown; the cause is logged, not told", async () => {
  const lost = new AppError("unavailable", "lost contact with the service on consensus.v1.ForwardService.Propose@c.n1: no answer for 5000 ms");
  const h = harness(() => Promise.reject(lost));
  h.setLeader("n1");
  const err = await failure(h.propose(cmd, { timeoutMs: 100, repeatable: true }));
  assert.is(err.reason, "deadline_exceeded");
  assert.is(err.message, "outcome unknown: the change may have been applied; retry with the same request id");
  assert.ok(h.forwards.length > 1, "a repeatable write is sent again while time remains");
  assert.match(h.logged.join("\n"), /consensus\.v1\.ForwardService/);
});

test("a non-repeatable write of unknown outcome is not sent twice", async () => {
  const h = harness(() => Promise.reject(new AppError("deadline_exceeded", "the operation timed out")));
  h.setLeader("n1");
  const err = await failure(h.propose(cmd, { timeoutMs: 1000, repeatable: false }));
  assert.is(err.reason, "deadline_exceeded");
  assert.equal(h.forwards, ["n1"]);
});

test("no leader at all: 503 within two election timeouts; other errors pass through unchanged", async () => {
  const h = harness(() => Promise.reject(new AppError("internal", "consensus node failed and stopped")));
  const started = Date.now();
  const none = await failure(h.propose(cmd, { timeoutMs: 5000, repeatable: true }));
  assert.is(none.message, "cluster has no leader");
  assert.ok(Date.now() - started < 500);
  h.setLeader("n1");
  const internal = await failure(h.propose(cmd, { timeoutMs: 5000, repeatable: true }));
  assert.is(internal.reason, "internal");
});

test("leader watch: fires once per move, not for 'no leader known', and cancels cleanly", () => {
  const w = createLeaderWatch();
  const fired: string[] = [];
  w.observe("a");
  const cancel = w.watch("a", () => fired.push("x"));
  w.watch("a", () => fired.push("y"));
  w.observe("");
  assert.equal(fired, []);
  cancel();
  w.observe("b");
  w.observe("c");
  assert.equal(fired, ["y"]);
});

test.run();
