import { suite } from "uvu";
import * as assert from "uvu/assert";
import { instantConflicts, type Answer } from "./live-poller.js";

// The poller's judgement of "one release at each instant", on made-up timings.

const a = (what: string, release: string, sent: number, done: number): Answer => ({ what, release, version: "", sent, done });
const poller = suite("live poller: one release at each instant");

poller("should allow answers that overlap a switch to name either side", () => {
  assert.equal(instantConflicts([a("api", "R1", 0, 10), a("page", "R2", 2, 8), a("binary", "R1", 5, 12), a("feed", "R2", 13, 15)]), []);
});

poller("should flag an answer sent after a newer one had arrived, yet naming the older release", () => {
  const found = instantConflicts([a("api", "R2", 0, 5), a("page", "R1", 6, 9)]);
  assert.is(found.length, 1);
  assert.match(found[0] ?? "", "page sent at 6.0 named R1, after api had named R2");
});

poller("should flag going back across rounds too, whatever the request", () => {
  assert.is(instantConflicts([a("checksum", "R3", 0, 2), a("api", "R3", 0, 3), a("signature", "R2", 40, 41)]).length, 1);
});

poller.run();
