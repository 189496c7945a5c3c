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
    send: (m) => events.push(`send ${m.type}${m.type === "appendResp" ? ` ${m.matchIndex}` : ""}`),
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

test.run();
