import { createMemoryBroker } from "@mc/shared/bus";
import { AppError } from "@mc/shared/errors";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createForwardLaneClient, forwardSubject, serveForwardLane } from "./forward-lane.js";
import { classifyFailure } from "./write-outcome.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const failure = async (p: Promise<unknown>): Promise<AppError> => {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
  }
  throw new Error("expected an AppError");
};

test("a batch goes through the lane in order and every command gets its index", async () => {
  const broker = createMemoryBroker();
  const seen: string[] = [];
  serveForwardLane(broker.connect(), "c", "lead", (data) => {
    seen.push(new TextDecoder().decode(data));
    return Promise.resolve({ index: 10 + seen.length, term: 4 });
  });
  const r = await createForwardLaneClient(broker.connect(), "c").proposeBatch("lead", "f1", [enc("a"), enc("b"), enc("c d%+#é")], 1000);
  assert.equal(seen, ["a", "b", "c d%+#é"]);
  assert.equal(r, { indexes: [11, 12, 13], term: 4 });
});

test("a refusal keeps its reason and message, so it is still classified as not appended", async () => {
  const broker = createMemoryBroker();
  serveForwardLane(broker.connect(), "c", "lead", () => Promise.reject(new AppError("unavailable", "not the leader")));
  const err = await failure(createForwardLaneClient(broker.connect(), "c").proposeBatch("lead", "f1", [enc("a"), enc("b")], 1000));
  assert.is(err.reason, "unavailable");
  assert.is(err.message, "not the leader");
  assert.is(classifyFailure(err), "not_appended");
});

test("some commands appended, some refused: the outcome is unknown; a throwing leader leaks no text", async () => {
  const broker = createMemoryBroker();
  let n = 0;
  serveForwardLane(broker.connect(), "c", "lead", () => (++n === 1 ? Promise.resolve({ index: 1, term: 1 }) : Promise.reject(new AppError("unavailable", "not the leader"))));
  serveForwardLane(broker.connect(), "c", "odd", () => Promise.reject(new Error("secret detail")));
  const client = createForwardLaneClient(broker.connect(), "c");
  assert.is(classifyFailure(await failure(client.proposeBatch("lead", "f1", [enc("a"), enc("b")], 1000))), "unknown");
  const odd = await failure(client.proposeBatch("odd", "f1", [enc("a")], 1000));
  assert.equal([odd.reason, odd.message], ["internal", "internal error"]);
});

test("no lane on the leader falls back; a silent leader times out as unknown; damaged and duplicated frames are handled", async () => {
  const broker = createMemoryBroker();
  const client = createForwardLaneClient(broker.connect(), "c");
  assert.is(await client.proposeBatch("old", "f1", [enc("a")], 1000), "fallback");
  const silent = broker.connect();
  silent.subscribe(forwardSubject("c", "mute"), () => undefined);
  const late = await failure(client.proposeBatch("mute", "f1", [enc("a")], 50));
  assert.equal([late.reason, classifyFailure(late)], ["deadline_exceeded", "unknown"]);
  // A peer answering garbage twice: one unknown outcome, the duplicate ignored.
  const garbage = broker.connect();
  garbage.subscribe(forwardSubject("c", "bad"), (m) => {
    garbage.publish(m.reply ?? "", new Uint8Array([0x0a, 0xff]));
    garbage.publish(m.reply ?? "", new Uint8Array([0x0a, 0xff]));
  });
  assert.is(classifyFailure(await failure(client.proposeBatch("bad", "f1", [enc("a")], 1000))), "unknown");
  // A request cut short reaches a real server: refused as damaged, nothing proposed.
  const bus = broker.connect();
  let proposed = 0;
  serveForwardLane(bus, "c", "lead2", () => Promise.resolve({ index: ++proposed, term: 1 }));
  const inbox = bus.newInbox();
  const answers: string[] = [];
  bus.subscribe(`${inbox}.*`, (m) => answers.push(m.headers.get("x-app-reason") ?? "ok"));
  bus.publish(forwardSubject("c", "lead2"), new Uint8Array([0x12, 0x09, 0x01]), { reply: `${inbox}.1` });
  await bus.flush();
  assert.equal(await client.proposeBatch("lead2", "f1", [enc("x")], 1000), { indexes: [1], term: 1 });
  assert.equal(answers, ["invalid_argument"]);
  assert.is(proposed, 1);
});

test.run();
