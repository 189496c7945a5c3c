import { test } from "uvu";
import * as assert from "uvu/assert";
import { createPrng } from "./prng.js";
import { createRaftNode } from "./raft-node.js";
import { createTestNetwork, electLeader, electLeaderUncommitted } from "../../testing/test-network.js";
import type { AppendRequest, Message, SnapshotData } from "./types.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (d: Uint8Array): string => new TextDecoder().decode(d);

test("a group of one elects itself and commits at once", () => {
  const n = createRaftNode({ id: "a", random: createPrng(1), bootstrap: { voters: [{ id: "a", address: "" }], learners: [] } }, { hardState: { term: 0, votedFor: "", commit: 0 }, entries: [] });
  const r = n.campaign();
  assert.is(n.status().role, "leader");
  assert.equal(r.hardState, { term: 1, votedFor: "a", commit: 1 });
  const p = n.propose(enc("x"));
  assert.ok(p.ok);
  if (p.ok) assert.equal(p.ready.committed.map((e) => dec(e.data)), ["x"]);
});

test("election timeouts are randomized within the configured range", () => {
  const net = createTestNetwork(3);
  let ticks = 0;
  while (!net.ids.some((id) => net.node(id).status().role !== "follower")) {
    net.tick();
    ticks++;
  }
  assert.ok(ticks >= 15 && ticks <= 30, `first campaign after ${ticks} ticks`);
});

test("three nodes elect one leader; an entry commits on a majority and applies everywhere", () => {
  const net = createTestNetwork(3);
  const leader = electLeader(net);
  assert.is(net.ids.filter((id) => net.node(id).status().role === "leader").length, 1);
  const p = net.node(leader).propose(enc("hello"));
  assert.ok(p.ok);
  if (p.ok) net.take(leader, p.ready);
  net.stabilize();
  net.tick(5);
  net.stabilize();
  for (const id of net.ids) assert.equal(net.applied(id).filter((e) => e.type === "normal").map((e) => dec(e.data)), ["hello"], id);
});

test("the vote is in the same Ready as the hard state that records it (persist before send)", () => {
  const n = createRaftNode({ id: "b", random: createPrng(2), bootstrap: { voters: ["a", "b", "c"].map((id) => ({ id, address: "" })), learners: [] } }, { hardState: { term: 0, votedFor: "", commit: 0 }, entries: [] });
  const r = n.step({ type: "vote", from: "a", to: "b", term: 1, lastLogIndex: 0, lastLogTerm: 0, preVote: false, transfer: false });
  assert.equal(r.hardState, { term: 1, votedFor: "a", commit: 0 });
  assert.equal(r.messages.map((m) => m.type), ["voteResp"]);
  // A second candidate in the same term is refused.
  const again = n.step({ type: "vote", from: "c", to: "b", term: 1, lastLogIndex: 5, lastLogTerm: 1, preVote: false, transfer: false });
  assert.is(again.messages[0]?.type === "voteResp" && again.messages[0].granted, false);
});

test("pre-vote: a partitioned node does not inflate its term and cannot depose the leader when it returns", () => {
  const net = createTestNetwork(3);
  const leader = electLeader(net);
  const term = net.node(leader).status().term;
  const loner = net.ids.find((id) => id !== leader) ?? "";
  const leaderRounds = net.node(leader).status().preVotes;
  net.isolate(loner);
  for (let i = 0; i < 20; i++) {
    net.tick(10);
    net.stabilize();
  }
  assert.is(net.node(loner).status().term, term, "pre-vote kept the term");
  // The failed rounds leave no term behind, but they are counted: the node lost its leader.
  const rounds = net.node(loner).status().preVotes;
  assert.ok(rounds >= 2, `pre-vote rounds counted: ${rounds}`);
  assert.is(net.node(leader).status().preVotes, leaderRounds, "the leader, hearing its majority, started none");
  net.heal();
  for (let i = 0; i < 10; i++) {
    net.tick(5);
    net.stabilize();
  }
  assert.is(net.leader(), leader);
  assert.is(net.node(leader).status().term, term);
});

test("check-quorum: a leader cut off from its majority steps down within an election timeout", () => {
  const net = createTestNetwork(5);
  const leader = electLeader(net);
  net.isolate(leader);
  let ticks = 0;
  while (net.node(leader).status().role === "leader" && ticks < 100) {
    net.tick(1, [leader]);
    net.stabilize();
    ticks++;
  }
  assert.ok(ticks <= 31, `stepped down after ${ticks} ticks`);
  const others = net.ids.filter((id) => id !== leader);
  for (let i = 0; i < 40 && !others.some((id) => net.node(id).status().role === "leader"); i++) {
    net.tick(1, others);
    net.stabilize();
  }
  assert.ok(others.some((id) => net.node(id).status().role === "leader"), "the majority elected a new leader");
});

test("leader stickiness: a follower that hears from its leader ignores a higher-term vote request", () => {
  const net = createTestNetwork(3);
  const leader = electLeader(net);
  const f = net.ids.find((id) => id !== leader) ?? "";
  const term = net.node(f).status().term;
  const r = net.node(f).step({ type: "vote", from: "n9", to: f, term: term + 5, lastLogIndex: 100, lastLogTerm: term + 4, preVote: false, transfer: false });
  assert.equal(r.messages, []);
  assert.is(net.node(f).status().term, term);
  // ...unless the request comes from a leadership transfer.
  net.node(f).step({ type: "vote", from: "n9", to: f, term: term + 5, lastLogIndex: 100, lastLogTerm: term + 4, preVote: false, transfer: true });
  assert.is(net.node(f).status().term, term + 5);
});

test("leadership transfer: the target gets TimeoutNow once caught up and wins; proposals wait", () => {
  const net = createTestNetwork(3);
  const leader = electLeader(net);
  const target = net.ids.find((id) => id !== leader) ?? "";
  const t = net.node(leader).transferLeadership(target);
  assert.ok(t.ok);
  if (t.ok) net.take(leader, t.ready);
  const p = net.node(leader).propose(enc("during"));
  assert.is(p.ok ? "" : p.reason, "transferring");
  const delivered = net.stabilize();
  assert.ok(delivered.some((m) => m.type === "timeoutNow" && m.to === target));
  assert.is(net.leader(), target);
  assert.is(net.node(leader).status().role, "follower");
});

test("membership: no change before the leader's no-op commits, and only one uncommitted change at a time", () => {
  const net = createTestNetwork(3);
  net.add("n4");
  const leader = electLeaderUncommitted(net);
  const n = net.node(leader);
  assert.ok(n.status().commit < n.status().lastIndex, "no-op not yet committed");
  const early = n.changeMembership({ type: "addLearner", member: { id: "n4", address: "n4:1" } });
  assert.is(early.ok ? "" : early.reason, "not_ready");
  net.stabilize();
  const first = n.changeMembership({ type: "addLearner", member: { id: "n4", address: "n4:1" } });
  assert.ok(first.ok);
  net.take(leader, first.ready);
  // Effective when appended, on the leader at once.
  assert.ok(n.status().configuration.learners.some((m) => m.id === "n4"));
  const second = n.changeMembership({ type: "remove", id: net.ids.find((id) => id !== leader) ?? "" });
  assert.is(second.ok ? "" : second.reason, "config_pending");
  net.stabilize();
  net.tick(5);
  net.stabilize();
  assert.is(net.node("n4").status().leaderId, leader);
  assert.is(net.node("n4").status().commit, n.status().commit);
  const promote = n.changeMembership({ type: "addVoter", member: { id: "n4", address: "n4:1" } });
  assert.ok(promote.ok);
  net.take(leader, promote.ready);
  net.stabilize();
  assert.is(n.status().configuration.voters.length, 4);
});

/**
 * A 3-node network with 8-byte snapshot chunks where one follower was cut
 * off while `count` commands committed and the leader then compacted its log
 * into `data`: the follower can only catch up by InstallSnapshot once healed.
 */
function laggingBehindSnapshot(count: number, data: Uint8Array): { net: ReturnType<typeof createTestNetwork>; lag: string; applied: number } {
  const net = createTestNetwork(3, { snapshotChunkBytes: 8 });
  const leader = electLeader(net);
  const lag = net.ids.find((id) => id !== leader) ?? "";
  net.isolate(lag);
  const l = net.node(leader);
  for (let i = 0; i < count; i++) {
    const p = l.propose(enc(`c${i}`));
    if (p.ok) net.take(leader, p.ready);
    net.stabilize();
  }
  net.tick(5);
  net.stabilize();
  const applied = l.status().applied;
  net.take(leader, l.compact(applied, data));
  assert.is(l.status().snapshotIndex, applied);
  net.heal();
  return { net, lag, applied };
}

test("snapshots: a lagging node catches up through a chunked InstallSnapshot", () => {
  const { net, lag, applied } = laggingBehindSnapshot(20, enc("state-with-20-commands"));
  let chunks = 0;
  for (let i = 0; i < 20 && net.node(lag).status().applied < applied; i++) {
    net.tick(5);
    chunks += net.stabilize().filter((m) => m.type === "snapshot").length;
  }
  assert.ok(chunks >= 3, `${chunks} chunks`);
  assert.is(net.node(lag).status().snapshotIndex, applied);
  assert.is(net.node(lag).status().commit, applied);
});

test("snapshots: once the runner holds the snapshot elsewhere (its file), the leader sends those bytes, not its copy", () => {
  const original = Uint8Array.from({ length: 100 }, (_, i) => i);
  const inMemory = original.slice();
  const { net, lag, applied } = laggingBehindSnapshot(5, inMemory);
  const leader = net.ids.find((id) => net.node(id).status().role === "leader") ?? "";
  const l = net.node(leader);
  const term = l.termAt(applied) ?? 0;
  let reads = 0;
  const stored = original.slice();
  const onDisk: SnapshotData = { length: stored.length, subarray: (b, e) => (reads++, stored.slice(b, e)) };
  assert.is(l.holdSnapshotData({ index: applied, term: term + 1 }, onDisk), false, "another term");
  assert.is(l.holdSnapshotData({ index: applied - 1, term }, onDisk), false, "another index");
  assert.is(l.holdSnapshotData({ index: applied, term }, { length: 99, subarray: (b, e) => stored.slice(b, e) }), false, "another length");
  assert.ok(l.holdSnapshotData({ index: applied, term }, onDisk));
  // Were the copy in memory still read, the follower would get these bytes.
  inMemory.fill(0xff);
  const got = new Uint8Array(original.length);
  for (let i = 0; i < 40 && net.node(lag).status().snapshotIndex < applied; i++) {
    net.tick(5);
    for (const m of net.stabilize()) if (m.type === "snapshot" && m.to === lag) got.set(m.data, m.offset);
  }
  assert.is(net.node(lag).status().snapshotIndex, applied);
  assert.equal([...got], [...original]);
  assert.ok(reads >= 100 / 8, `${reads} reads`);
});

test("snapshots: heartbeats crossing a slow transfer do not multiply the chunks in flight", () => {
  // 100 chunks of 8 bytes.
  const { net, lag, applied } = laggingBehindSnapshot(5, new Uint8Array(800).fill(1));
  let sent = 0;
  // The link carries three messages per tick, so heartbeats (every 5 ticks) resend chunks still in flight.
  for (let t = 0; t < 20_000 && net.node(lag).status().snapshotIndex < applied; t++) {
    net.tick(1);
    for (let k = 0; k < 3; k++) {
      if (net.inflight()[0]?.type === "snapshot") sent++;
      net.deliverOne();
    }
  }
  assert.is(net.node(lag).status().snapshotIndex, applied, `installed (${sent} chunks sent, ${net.inflight().length} in flight)`);
  // Each chunk once, plus at most one resend per heartbeat: a duplicate answer must not start another stream.
  assert.ok(sent <= 100 + 100 / 3 + 10, `${sent} chunks sent for 100`);
});

test("a snapshot whose checksum does not match is discarded and the transfer restarts", () => {
  const sum = (d: SnapshotData): Uint8Array => new Uint8Array([d.subarray(0, d.length).reduce((a, b) => (a + b) & 0xff, 0)]);
  const n = createRaftNode({ id: "b", random: createPrng(5), checksum: sum, bootstrap: { voters: ["a", "b"].map((id) => ({ id, address: "" })), learners: [] } }, { hardState: { term: 0, votedFor: "", commit: 0 }, entries: [] });
  const meta = { index: 10, term: 1, configuration: { voters: ["a", "b"].map((id) => ({ id, address: "" })), learners: [] } };
  const data = enc("snapshot-bytes");
  const bad = n.step({ type: "snapshot", from: "a", to: "b", term: 1, meta, offset: 0, data, done: true, checksum: new Uint8Array([0]) });
  assert.is(bad.restore, undefined);
  assert.equal(bad.messages[0]?.type === "snapshotResp" && [bad.messages[0].installed, bad.messages[0].nextOffset], [false, 0]);
  const good = n.step({ type: "snapshot", from: "a", to: "b", term: 1, meta, offset: 0, data, done: true, checksum: sum(data) });
  assert.is(good.restore?.meta.index, 10);
  assert.is(n.status().commit, 10);
});

test("fast backtracking: a divergent follower is repaired in a few round trips", () => {
  const net = createTestNetwork(3, { maxBatch: 1000 });
  const leader = electLeader(net);
  const l = net.node(leader);
  const [f1, f2] = net.ids.filter((id) => id !== leader) as [string, string];
  // The old leader, alone, appends 50 entries that will never commit.
  net.isolate(leader);
  for (let i = 0; i < 50; i++) {
    const p = l.propose(enc(`lost${i}`));
    if (p.ok) net.take(leader, p.ready);
  }
  net.drop(() => true);
  const next = electLeader(net, [f1, f2]);
  for (let i = 0; i < 50; i++) {
    const p = net.node(next).propose(enc(`kept${i}`));
    if (p.ok) net.take(next, p.ready);
  }
  net.stabilize();
  net.heal();
  net.tick(5, [next]);
  const rejections = net.stabilize().filter((m) => m.type === "appendResp" && !m.success && m.from === leader).length;
  assert.ok(rejections <= 3, `${rejections} rejections`);
  assert.is(l.status().lastIndex, net.node(next).status().lastIndex);
  assert.is(l.termAt(l.status().lastIndex), net.node(next).status().term);
});

test("ReadIndex: served only after a quorum confirms leadership; an isolated leader never serves it", () => {
  const net = createTestNetwork(3);
  const leader = electLeader(net);
  net.tick(5);
  net.stabilize();
  const l = net.node(leader);
  const r = l.readIndex("r1");
  assert.ok(r.ok);
  if (r.ok) {
    assert.equal(r.ready.readStates, [], "not served before the heartbeat round");
    net.take(leader, r.ready);
  }
  net.stabilize();
  assert.equal(net.readStates(leader), [{ ctx: "r1", index: l.status().commit }]);
  net.isolate(leader);
  const r2 = l.readIndex("r2");
  if (r2.ok) net.take(leader, r2.ready);
  net.tick(40, [leader]);
  net.stabilize();
  assert.is(net.readStates(leader).length, 1, "the isolated leader served no read");
  assert.is(l.status().role, "follower");
});

test("a leader removed from the configuration steps down once the removal commits", () => {
  const net = createTestNetwork(3);
  const leader = electLeader(net);
  net.tick(5);
  net.stabilize();
  const c = net.node(leader).changeMembership({ type: "remove", id: leader });
  assert.ok(c.ok);
  if (c.ok) net.take(leader, c.ready);
  net.stabilize();
  net.tick(5);
  net.stabilize();
  assert.is(net.node(leader).status().role, "follower");
  const rest = net.ids.filter((id) => id !== leader);
  for (let i = 0; i < 60 && !net.leader(); i++) {
    net.tick(1, rest);
    net.stabilize();
  }
  const next = net.leader();
  assert.ok(next && next !== leader, "a remaining voter leads");
  assert.is(net.node(next ?? "").status().configuration.voters.length, 2);
});

test("a stale append from an old term is answered with the new term and changes nothing", () => {
  const net = createTestNetwork(3);
  const leader = electLeader(net);
  const f = net.ids.find((id) => id !== leader) ?? "";
  const term = net.node(f).status().term;
  const stale: AppendRequest = { type: "append", from: "n9", to: f, term: term - 1, prevIndex: 0, prevTerm: 0, entries: [{ index: 1, term: term - 1, type: "normal", data: enc("x") }], commit: 1, seq: 1 };
  const r = net.node(f).step(stale as Message);
  assert.equal(r.entries, []);
  assert.is(r.messages[0]?.term, term);
});


test("a follower commits a reported entry it holds with the same term, and nothing it lacks or holds from another term", () => {
  const net = createTestNetwork(3);
  const leader = electLeader(net);
  const follower = net.ids.find((id) => id !== leader) ?? "";
  const p = net.node(leader).propose(enc("w"));
  assert.ok(p.ok);
  if (!p.ok) return;
  net.take(leader, p.ready);
  // Deliver only the leader's append to the follower: it holds the entry, not yet its commit.
  net.drop((m) => !(m.type === "append" && m.to === follower));
  net.deliverOne();
  net.drop((m) => m.type === "appendResp");
  const before = net.node(follower).status().commit;
  assert.ok(before < p.index, "not committed yet on the follower");
  assert.is(net.node(follower).learnCommit(p.index, p.term + 1).committed.length, 0, "another term: ignored");
  assert.is(net.node(follower).learnCommit(p.index + 5, p.term).committed.length, 0, "an entry it lacks: ignored");
  const r = net.node(follower).learnCommit(p.index, p.term);
  assert.equal(r.committed.map((e) => dec(e.data)), ["w"]);
  assert.is(net.node(follower).status().commit, p.index);
});

test.run();
