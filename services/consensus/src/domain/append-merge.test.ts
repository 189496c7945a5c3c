import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mergeAppends } from "./append-merge.js";
import type { AppendRequest, Entry } from "./types.js";

const merge = suite("mergeAppends");
const entry = (index: number, term = 2): Entry => ({ index, term, type: "normal", data: new Uint8Array([index]) });
const append = (prevIndex: number, entries: Entry[], o: Partial<AppendRequest> = {}): AppendRequest => ({
  type: "append", from: "a", to: "b", term: 2, prevIndex, prevTerm: 2, entries, commit: prevIndex, seq: prevIndex, ...o,
});

merge("joins contiguous batches and keeps the first one's anchor", () => {
  const m = mergeAppends(append(10, [entry(11)]), append(11, [entry(12), entry(13)], { commit: 12, seq: 40 }));
  assert.equal(m?.entries.map((e) => e.index), [11, 12, 13]);
  assert.is(m?.prevIndex, 10);
  assert.is(m?.commit, 12);
  assert.is(m?.seq, 40);
});

merge("absorbs a heartbeat on either side", () => {
  const hb = append(10, []);
  assert.equal(mergeAppends(hb, append(10, [entry(11)]))?.entries.map((e) => e.index), [11]);
  const after = mergeAppends(append(10, [entry(11)]), append(11, [], { commit: 11, seq: 99 }));
  assert.equal(after?.entries.map((e) => e.index), [11]);
  assert.is(after?.commit, 11);
  assert.is(after?.seq, 99);
});

merge("refuses a later message that backs up, skips ahead or comes from another term", () => {
  assert.is(mergeAppends(append(10, [entry(11)]), append(9, [entry(10), entry(11)])), undefined);
  assert.is(mergeAppends(append(10, [entry(11)]), append(12, [entry(13)])), undefined);
  assert.is(mergeAppends(append(10, [entry(11)]), append(11, [entry(12, 3)], { term: 3 })), undefined);
  assert.is(mergeAppends(append(10, []), append(10, [], { to: "c" })), undefined);
});

merge.run();
