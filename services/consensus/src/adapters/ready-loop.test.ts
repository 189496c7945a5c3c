import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Entry, Message, Ready } from "../domain/types.js";
import { createReadyLoop } from "./ready-loop.js";

// The runner's half of "persist before send": a vote or an acknowledgement
// that leaves the node before its hard state and entries are durable can be
// forgotten by a kill -9, and then the node votes twice or a leader counts an
// entry the follower no longer has.

const entry = (index: number): Entry => ({ index, term: 1, type: "normal", data: new Uint8Array([index]) });
const ack = (n: number): Message => ({ type: "appendResp", from: "b", to: "a", term: 1, success: true, matchIndex: n, conflictTerm: 0, conflictIndex: 0, lastIndex: n, seq: n });
const append = (to: string, n: number, term = 1, commit = 0): Message => ({ type: "append", from: "a", to, term, prevIndex: n - 1, prevTerm: term, entries: [entry(n)], commit, seq: n });
const ready = (over: Partial<Ready>): Ready => ({ hardState: undefined, entries: [], snapshot: undefined, messages: [], restore: undefined, committed: [], readStates: [], ...over });

function recorder(options: { failPersist?: number } = {}) {
  const events: string[] = [];
  let persists = 0;
  let release: (() => void) | undefined;
  const loop = createReadyLoop({
    async persist(r) {
      persists++;
      events.push(`persist ${r.entries.map((e) => e.index).join(",")}${r.hardState ? ` hs${r.hardState.term}/${r.hardState.votedFor}` : ""}`);
      // Hold the first fsync open so later Readies queue up behind it.
      if (persists === 1) await new Promise<void>((resolve) => (release = resolve));
      if (options.failPersist === persists) throw new Error("disk full");
      events.push("durable");
    },
    send: (m) => events.push(`send ${m.type}${m.type === "appendResp" ? ` ${m.matchIndex}` : ""}${m.type === "append" ? ` ${m.to} t${m.term}` : ""}`),
    async apply(r) {
      for (const e of r.committed) events.push(`apply ${e.index}`);
    },
    onError: (err) => events.push(`error ${err instanceof Error ? err.message : String(err)}`),
  });
  return { events, loop, release: () => release?.() };
}

test("no message leaves before the state it depends on is durable, across queued Readies", async () => {
  const { events, loop, release } = recorder();
  const first = loop.push(ready({ hardState: { term: 1, votedFor: "a", commit: 0 }, messages: [{ type: "voteResp", from: "b", to: "a", term: 1, granted: true, preVote: false }] }));
  const second = loop.push(ready({ entries: [entry(1), entry(2)], messages: [ack(2)] }));
  const third = loop.push(ready({ entries: [entry(3)], messages: [ack(3)], committed: [entry(1), entry(2)] }));
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(events, ["persist  hs1/a"], "nothing sent while the first fsync is open");
  release();
  await Promise.all([first, second, third]);
  // Each send comes after a "durable" that covers it; entries 2 and 3 share one fsync.
  assert.equal(events, ["persist  hs1/a", "durable", "send voteResp", "persist 1,2,3", "durable", "send appendResp 2", "send appendResp 3", "apply 1", "apply 2"]);
});

test("a failed persist sends nothing and applies nothing of what was queued", async () => {
  const { events, loop, release } = recorder({ failPersist: 1 });
  void loop.push(ready({ entries: [entry(1)], messages: [ack(1)], committed: [entry(1)] }));
  await new Promise((r) => setTimeout(r, 10));
  release();
  await loop.idle();
  assert.equal(events, ["persist 1", "error disk full"]);
});

test("after a failure nothing more is persisted or sent: a later Ready would follow the dropped ones with a gap", async () => {
  const { events, loop, release } = recorder({ failPersist: 1 });
  void loop.push(ready({ entries: [entry(1)], messages: [ack(1)] }));
  void loop.push(ready({ entries: [entry(2)], messages: [ack(2)] }));
  await new Promise((r) => setTimeout(r, 10));
  release();
  await loop.idle();
  // Pushed after the failure (a caller that still held the core): entry 3 must never be written after a lost 1 and 2.
  void loop.push(ready({ entries: [entry(3)], messages: [ack(3)] }));
  await new Promise((r) => setTimeout(r, 10));
  await loop.idle();
  assert.equal(events, ["persist 1", "error disk full"]);
});

test("a leader's AppendEntries leave while its own copy is being persisted, once its term is durable", async () => {
  const { events, loop, release } = recorder();
  // Elected: the new term and the self-vote go to disk before any AppendEntries of that term.
  const elected = loop.push(ready({ hardState: { term: 2, votedFor: "a", commit: 0 }, entries: [entry(1)], messages: [append("b", 1, 2), append("c", 1, 2)] }));
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(events, ["persist 1 hs2/a"], "the first AppendEntries of a term wait for the term on disk");
  release();
  await elected;
  // Same term (only the commit moves): the AppendEntries go first, the follower's answer still waits.
  await loop.push(ready({ hardState: { term: 2, votedFor: "a", commit: 1 }, entries: [entry(2)], messages: [append("b", 2, 2), ack(7)], committed: [entry(1)] }));
  assert.equal(events, [
    "persist 1 hs2/a", "durable", "send append b t2", "send append c t2",
    "send append b t2", "persist 2 hs2/a", "durable", "send appendResp 7", "apply 1",
  ]);
});

test("a run that changes the term or vote sends nothing early, even its Readies without a hard state", async () => {
  const { events, loop, release } = recorder();
  const first = loop.push(ready({ hardState: { term: 1, votedFor: "a", commit: 0 }, entries: [entry(1)] }));
  await new Promise((r) => setTimeout(r, 10));
  // Queued behind the open fsync: a vote for a new term, then AppendEntries with no hard state of their own.
  const second = loop.push(ready({ hardState: { term: 3, votedFor: "a", commit: 0 } }));
  const third = loop.push(ready({ entries: [entry(2)], messages: [append("b", 2, 3)] }));
  release();
  await Promise.all([first, second, third]);
  assert.equal(events, ["persist 1 hs1/a", "durable", "persist 2 hs3/a", "durable", "send append b t3"]);
});

test("what an acknowledgement brings (the commit of the leader's entries) leaves only once those entries are durable on the leader", async () => {
  const events: string[] = [];
  const gates: (() => void)[] = [];
  const loop = createReadyLoop({
    async persist(r) {
      events.push(`persist ${r.entries.map((e) => e.index).join(",")}`);
      await new Promise<void>((resolve) => gates.push(resolve));
      events.push("durable");
    },
    send: (m) => events.push(`send ${m.type} ${m.to}`),
    apply: async () => undefined,
    onError: (err) => events.push(`error ${String(err)}`),
  });
  const open = async (): Promise<void> => {
    await new Promise((r) => setTimeout(r, 5));
    gates.shift()?.();
  };
  const hs = { term: 2, votedFor: "a", commit: 0 };
  const elected = loop.push(ready({ hardState: hs, entries: [entry(1)] }));
  await open();
  await elected;
  // Entry 2 goes to b early, while the leader's own write of it is open.
  const second = loop.push(ready({ entries: [entry(2)], messages: [append("b", 2, 2)] }));
  await new Promise((r) => setTimeout(r, 5));
  // b acknowledged 2: the core commits it and tells c, in a Ready pushed meanwhile.
  const third = loop.push(ready({ hardState: { ...hs, commit: 2 }, messages: [append("c", 3, 2, 2)], committed: [entry(1), entry(2)] }));
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(events.slice(2), ["send append b", "persist 2"], "the commit of entry 2 left before the leader's copy of it was durable");
  await open();
  await second;
  await open();
  await third;
  assert.equal(events.slice(2), ["send append b", "persist 2", "durable", "send append c", "persist ", "durable"]);
});

test.run();
