// The chaos verdicts on synthetic runs: each check passes an honest run and
// fails the run that breaks it, so a green chaos test means something.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import {
  disallowedFailures, failoverLimitMs, failoverTimes, leakyMessages, leaks, missingAcknowledged, noLeader, outcomeUnknown, ownConflicts, refusedButPresent, runViolations,
  slowFailovers, violations, type Fault, type Outcome, type Result,
} from "./chaos-checks.js";
import { faultKinds, openingKinds } from "./chaos-nemesis.js";
import { createPrng } from "@mc/consensus";
import { summary } from "./chaos-summary.js";

const checks = suite("chaos checks");

let clock = 0;
const outcome = (key: string, result: Result, startedAt = (clock += 10)): Outcome => ({ writer: Number(key.slice(1, 2)), key, startedAt, endedAt: startedAt + 5, result });
const ok = { kind: "ok" } as const;
const http = (status: number, message: string): Result => ({ kind: "http", status, message });

const honestRun: Outcome[] = [
  outcome("w0-000000", ok),
  outcome("w0-000001", http(503, noLeader)),
  outcome("w1-000000", http(504, outcomeUnknown)),
  outcome("w1-000001", { kind: "network", message: "connect ECONNREFUSED 127.0.0.1:7373" }),
  outcome("w2-000000", ok),
];
const everywhere = (keys: string[]): Map<string, Set<string>> => new Map(["a", "b", "c"].map((n) => [n, new Set(keys)]));

checks("should pass an honest run: acknowledged keys everywhere, unknown outcomes either way, only allowed answers", () => {
  assert.equal(violations(honestRun, everywhere(["w0-000000", "w2-000000", "w1-000000"]), ["chaoslab"]), []);
  assert.equal(violations(honestRun, everywhere(["w0-000000", "w2-000000", "w1-000001"])), []);
});

checks("check 1 should fail when one replica lacks an acknowledged key", () => {
  const replicas = everywhere(["w0-000000", "w2-000000"]);
  replicas.set("b", new Set(["w0-000000"]));
  assert.equal([...missingAcknowledged(honestRun, replicas)], [["b", ["w2-000000"]]]);
  assert.match(violations(honestRun, replicas).join("\n"), /check 1 .*1 missing on b, e\.g\. w2-000000/);
});

checks("check 2 should fail on any 409 for a writer's own name", () => {
  const run = [...honestRun, outcome("w3-000007", http(409, "key already exists"))];
  assert.is(ownConflicts(run).length, 1);
  const found = violations(run, everywhere(["w0-000000", "w2-000000", "w3-000007"]));
  assert.equal(found, ['check 2 (no 409 for an own create): 1: 1× "409 key already exists"']);
});

checks("check 3 should fail on messages naming subjects, inboxes, node ids, host:port or the cluster id", () => {
  for (const bad of ["no responders for consensus.v1.ForwardService.Propose", "nats: timeout on _INBOX.abc", "forward to 127_0_0_1_7373 failed", "cannot reach 127.0.0.1:40543", "kms.v1.KeyService unavailable", "group chaoslab lost"]) {
    assert.ok(leaks(bad, ["chaoslab"]), bad);
  }
  for (const good of [noLeader, outcomeUnknown, "key already exists", "request timed out"]) assert.not.ok(leaks(good, ["chaoslab"]), good);
  const run = [...honestRun, outcome("w4-000000", http(503, "no responders for consensus.v1.test.127_0_0_1_7373"))];
  assert.is(leakyMessages(run).length, 1);
  // The client's own network errors name the server it dialled: that is no leak.
  assert.is(leakyMessages(honestRun).length, 0);
});

checks("check 4 should fail on statuses or wordings outside the honest set", () => {
  const run = [
    ...honestRun,
    outcome("w5-000000", http(504, "the operation timed out")),
    outcome("w5-000001", http(409, "leadership changed before the command committed; it was not applied, retry it")),
    outcome("w5-000002", http(503, "change committed but not replicated")),
    outcome("w5-000003", http(500, "internal error")),
  ];
  assert.equal(disallowedFailures(run).map((o) => o.key), ["w5-000000", "w5-000001", "w5-000002", "w5-000003"]);
  assert.match(violations(run, everywhere(["w0-000000", "w2-000000"])).join("\n"), /check 4 \(only honest statuses\): 4 answers in 4 writes: .*\(4 final/);
});

checks("checks 3 and 4 should also judge the answers the client library retried past, but not its own network errors", () => {
  const retried: Outcome = {
    ...outcome("w6-000000", ok),
    answers: [
      { status: 0, message: "connect ECONNREFUSED 127.0.0.1:7373" },
      { status: 504, message: "the operation timed out" },
      { status: 503, message: "lost contact with the service on consensus.v1.ForwardService.Propose.chaoslab.127_0_0_1_41491" },
    ],
  };
  assert.equal(leakyMessages([retried], ["chaoslab"]).map((l) => l.answer.status), [503]);
  assert.equal(disallowedFailures([retried]).map((b) => [b.answer.status, b.final]), [[504, false], [503, false]]);
  const found = violations([...honestRun, retried], everywhere(["w0-000000", "w2-000000", "w6-000000"]), ["chaoslab"]);
  assert.is(found.length, 2);
  assert.match(found[0] ?? "", /check 3 .*"503 lost contact with the service on consensus\.v1\.ForwardService\.Propose\.chaoslab\.NODE_ID"/);
  assert.match(found[1] ?? "", /check 4 .*2 answers in 1 writes: .*\(0 final, the rest retried/);
});

checks("should report a 503-refused key that was applied, and the failover after each fault on the leader", () => {
  assert.equal(refusedButPresent(honestRun, everywhere(["w0-000000", "w0-000001"])), ["w0-000001"]);
  const faults: Fault[] = [
    { kind: "kill-leader", target: "x", at: 25, healedAt: 40, leader: true },
    { kind: "kill-follower", target: "y", at: 26, healedAt: 41, leader: false },
    { kind: "pause-leader", target: "z", at: 1000, healedAt: 1100, leader: true },
  ];
  // The ack at 10 ms predates the fault at 25; the next starts at 50 and ends at 55.
  assert.equal(failoverTimes(faults, honestRun).map((f) => f.ms), [55 - 25, undefined]);
  const lines = summary(honestRun, faults, everywhere(["w0-000000", "w2-000000", "w1-000000"]));
  assert.is(lines[0], "writes: 5 attempted, 2 acknowledged, 3 failed");
  assert.ok(lines.includes("unknown outcomes (504 or network): 2, of which 1 applied and 1 not"), lines.join("\n"));
  assert.ok(lines.some((l) => l.includes("first acknowledged write through a survivor after none")));
});

checks("check 5 should fail when a fault kind never ran; check 6 on a 503-refused key that is present; check 7 on a slow or endless failover", () => {
  const faults: Fault[] = [
    { kind: "kill-leader", target: "127.0.0.1:1", at: 100, healedAt: 900, leader: true },
    { kind: "pause-nats", target: "nats2", at: 2000, healedAt: 3000, leader: false },
  ];
  const acked = (key: string, startedAt: number, endedAt: number, answeredBy: string): Outcome => ({ writer: 0, key, startedAt, endedAt, result: ok, answeredBy });
  const fast = [acked("w0-000100", 150, 700, "127.0.0.1:2")];
  assert.equal(runViolations(faults, ["kill-leader", "pause-nats"], fast, everywhere(["w0-000100"])), []);
  const kinds = runViolations(faults, ["kill-leader", "pause-nats", "pause-follower"], fast, everywhere(["w0-000100"]));
  assert.equal(kinds, ["check 5 (every fault kind ran): never ran: pause-follower"]);
  const refused = [...fast, outcome("w1-000001", http(503, noLeader))];
  assert.match(runViolations(faults, ["kill-leader"], refused, everywhere(["w0-000100", "w1-000001"])).join("\n"), /check 6 .*1 refused writes are present, e.g\. w1-000001/);
  // An ack from the killed node itself (after its restart) is no failover; a survivor's 2.5 s later is too slow.
  const slow = [acked("w0-000100", 150, 1200, "127.0.0.1:1"), acked("w0-000101", 200, 2600, "127.0.0.1:3")];
  assert.equal(slowFailovers(faults, slow, failoverLimitMs).map((f) => f.ms), [2500]);
  assert.match(runViolations(faults, ["kill-leader"], slow, everywhere(["w0-000100", "w0-000101"])).join("\n"), /check 7 .*127\.0\.0\.1:1 at 100: 2500 ms/);
  assert.match(runViolations(faults, ["kill-leader"], [], everywhere([])).join("\n"), /check 7 .*no write got through/);
});

checks("the nemesis opens every run with every fault kind once, in a seeded order", () => {
  const a = openingKinds(createPrng(7));
  assert.equal([...a].sort(), [...faultKinds].sort());
  assert.equal(openingKinds(createPrng(7)), a, "the same seed, the same order");
  const orders = new Set([1, 2, 3, 4, 5, 6, 8, 9].map((seed) => openingKinds(createPrng(seed)).join(",")));
  assert.ok(orders.size > 1, "seeds vary the order");
});

checks("should replay the same fault schedule from the same seed", () => {
  const a = createPrng(42);
  const b = createPrng(42);
  const xs = Array.from({ length: 5 }, () => a());
  assert.equal(Array.from({ length: 5 }, () => b()), xs);
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  assert.not.equal(Array.from({ length: 5 }, createPrng(43)), xs);
});

checks.run();
