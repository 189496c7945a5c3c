import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { createMemoryBroker, type BusMessage } from "@mc/shared/bus";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { AppendEntriesRequestSchema, AppendEntriesResponseSchema } from "../../gen/consensus/v1/consensus_pb.js";
import type { AppendRequest, AppendResponse } from "../domain/types.js";
import { appendSubject, createAppendLaneClient, serveAppendLane, type LaneOutcome } from "./append-lane.js";
import { appendRequestFromPb, appendResponseToPb } from "./message-codec.js";

const append = (seq: number, to = "f1"): AppendRequest => ({
  type: "append", from: "lead", to, term: 3, prevIndex: seq, prevTerm: 3, commit: seq, seq,
  entries: [{ index: seq + 1, term: 3, type: "normal", data: new Uint8Array([seq, 1, 2]) }],
});
const answer = (m: AppendRequest): AppendResponse => ({
  type: "appendResp", from: m.to, to: m.from, term: m.term, success: true, matchIndex: m.prevIndex + m.entries.length, conflictTerm: 0, conflictIndex: 0, lastIndex: m.prevIndex + 1, seq: m.seq,
});
const seqOf = (o: LaneOutcome): number => (o !== "fallback" && o.ok && o.response?.type === "appendResp" ? o.response.seq : -1);

test("a round trip through the lane carries the request and its answer intact", async () => {
  const broker = createMemoryBroker();
  const seen: AppendRequest[] = [];
  serveAppendLane(broker.connect(), "c", "f1", (m) => {
    seen.push(m as AppendRequest);
    return Promise.resolve(answer(m as AppendRequest));
  });
  const o = await createAppendLaneClient(broker.connect(), "c", 500).send(append(7));
  assert.equal(seen, [append(7)]);
  assert.ok(o !== "fallback" && o.ok);
  assert.equal(o, { ok: true, response: answer(append(7)), rttMs: o.rttMs });
});

test("a peer without the lane (an older node, or none) makes the sender fall back to Connect", async () => {
  const broker = createMemoryBroker();
  assert.is(await createAppendLaneClient(broker.connect(), "c", 500).send(append(1, "old")), "fallback");
});

test("reordered, duplicated and damaged answers: each call settles once with its own answer, garbage is a lost message", async () => {
  const broker = createMemoryBroker();
  const peer = broker.connect();
  const held: BusMessage[] = [];
  // A hostile peer: holds three requests, then answers them in reverse order, twice each; the damaged one gets a truncated answer.
  peer.subscribe(appendSubject("c", "f1"), (msg) => {
    held.push(msg);
    if (held.length < 3) return;
    for (const m of [...held].reverse()) {
      const req = appendRequestFromPb(fromBinary(AppendEntriesRequestSchema, m.data), "f1");
      const bytes = toBinary(AppendEntriesResponseSchema, appendResponseToPb(answer(req)));
      const reply = m.reply ?? "";
      const body = req.seq === 2 ? bytes.subarray(0, bytes.length - 3) : bytes;
      peer.publish(reply, body);
      peer.publish(reply, body);
    }
  });
  const client = createAppendLaneClient(broker.connect(), "c", 2000);
  const outcomes = await Promise.all([client.send(append(1)), client.send(append(2)), client.send(append(3))]);
  assert.equal(outcomes.map(seqOf), [1, -1, 3]);
  assert.equal(outcomes[1], { ok: false, lost: "error" });
});

test("a request cut short is dropped by the server and the sender counts it lost at its deadline; the lane keeps working", async () => {
  const broker = createMemoryBroker();
  const bus = broker.connect();
  let handled = 0;
  serveAppendLane(bus, "c", "f1", (m) => {
    handled++;
    return Promise.resolve(answer(m as AppendRequest));
  });
  // A frame cut mid-batch reaches the server: no answer, no call into the core.
  const client = createAppendLaneClient(broker.connect(), "c", 60);
  const inbox = bus.newInbox();
  let answered = false;
  bus.subscribe(`${inbox}.*`, () => (answered = true));
  bus.publish(appendSubject("c", "f1"), new Uint8Array([0x0a, 0xff, 0xff, 0xff]), { reply: `${inbox}.1` });
  // A handler that never answers: the sender gives up after its timeout.
  serveAppendLane(bus, "c", "slow", () => new Promise(() => undefined));
  const started = performance.now();
  assert.equal(await client.send(append(1, "slow")), { ok: false, lost: "timeout" });
  assert.ok(performance.now() - started >= 55);
  assert.is(answered, false);
  assert.is(handled, 0);
  assert.is(seqOf(await client.send(append(4))), 4);
  assert.is(handled, 1);
});

test.run();
