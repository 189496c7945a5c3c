import { test } from "uvu";
import * as assert from "uvu/assert";
import { createPrng } from "../domain/prng.js";
import { createRaftNode } from "../domain/raft-node.js";
import { createTestNetwork, type TestNetwork } from "../../testing/test-network.js";
import { createSafetyChecks, SafetyViolation, type SafetyChecks } from "./safety-checks.js";

// The root cause of seeds 7301321 and 8002312: the checker took an entry's
// own term for the term it was committed in. These histories are written by
// hand, message by message, on the pure core.

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Feeds the checker what the simulator would: every node's state, then what each applied. */
function observe(net: TestNetwork, checks: SafetyChecks, seen: Map<string, number>): void {
  const leaders = (): { id: string; node: ReturnType<TestNetwork["node"]> }[] =>
    net.ids.filter((id) => net.node(id).status().role === "leader").map((id) => ({ id, node: net.node(id) }));
  for (const id of net.ids) checks.observed(id, net.node(id), leaders);
  for (const id of net.ids) {
    const applied = net.applied(id);
    for (const e of applied.slice(seen.get(id) ?? 0)) checks.applied(id, e);
    seen.set(id, applied.length);
  }
}

/**
 * Figure 8 of the paper, the other way round: n3 (term 1) holds entry 2/1
 * alone; n1 wins term 2 without it and is cut off at once, so it stays a
 * leader of term 2; n3 wins term 3 and commits 2/1 through its own no-op.
 */
function staleLeaderHistory(checks: SafetyChecks): TestNetwork {
  const net = createTestNetwork(3, { preVote: false, checkQuorum: false });
  const seen = new Map<string, number>();
  const step = (): void => {
    net.stabilize();
    observe(net, checks, seen);
  };
  net.take("n3", net.node("n3").campaign());
  step();
  assert.is(net.node("n3").status().role, "leader");

  net.isolate("n3");
  const p = net.node("n3").propose(enc("only on n3"));
  if (!p.ok) throw new Error("n3 refused a proposal");
  net.take("n3", p.ready);
  step();
  assert.is(net.node("n3").status().lastIndex, 2);

  net.take("n1", net.node("n1").campaign());
  while (net.node("n1").status().role !== "leader") if (!net.deliverOne()) throw new Error("n1 was not elected");
  observe(net, checks, seen);
  net.heal();
  net.isolate("n1");
  step();
  assert.is(net.node("n1").status().term, 2);
  assert.is(net.node("n1").termAt(2), 2, "n1 replaced index 2 with its own no-op");

  // n3's heartbeat of term 1 meets n2's term 2: n3 steps down, then wins term 3.
  net.tick(5, ["n3"]);
  step();
  assert.is(net.node("n3").status().role, "follower");
  net.take("n3", net.node("n3").campaign());
  step();
  net.tick(5, ["n3"]);
  step();
  return net;
}

test("a stale leader of term 2 may lack an entry of term 1 that the leader of term 3 committed", () => {
  const checks = createSafetyChecks();
  const net = staleLeaderHistory(checks);
  assert.is(net.node("n3").status().role, "leader");
  assert.is(net.node("n3").status().term, 3);
  assert.ok(net.applied("n3").some((e) => e.index === 2 && e.term === 1), "2/1 was committed and applied");
  assert.is(net.node("n1").status().role, "leader", "n1 still believes it leads term 2");
  assert.is(net.node("n1").termAt(2), 2);
});

test("a leader of a later term that lacks a committed entry is a violation", () => {
  const checks = createSafetyChecks();
  staleLeaderHistory(checks);
  // A node that somehow reaches term 4 with only entry 1: it must not lead.
  const rogue = createRaftNode(
    { id: "n9", random: createPrng(9), bootstrap: { voters: [{ id: "n9", address: "" }], learners: [] } },
    { hardState: { term: 3, votedFor: "", commit: 1 }, entries: [{ index: 1, term: 1, type: "noop", data: new Uint8Array(0) }] },
  );
  rogue.campaign();
  assert.is(rogue.status().role, "leader");
  assert.throws(() => checks.observed("n9", rogue, () => []), (err: unknown) => err instanceof SafetyViolation && /lacks entry 2\/1, committed in term 3/.test(err.message));
});

test("applying an entry other than the committed one is a violation", () => {
  const checks = createSafetyChecks();
  const net = staleLeaderHistory(checks);
  const first = net.applied("n3").find((e) => e.index === 2);
  if (!first) throw new Error("entry 2 not applied");
  assert.throws(() => checks.applied("n1", { ...first, term: 2 }), (err: unknown) => err instanceof SafetyViolation && /state machine safety/.test(err.message));
  assert.throws(() => checks.applied("n1", { index: 99, term: 3, type: "normal", data: enc("x") }), /no node holds as committed/);
});

test.run();
