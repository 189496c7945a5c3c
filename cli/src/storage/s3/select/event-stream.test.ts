import { suite } from "uvu";
import * as assert from "uvu/assert";
import { decodeEventStream, encodeEventMessage, type EventMessage } from "./event-stream.js";

async function decode(chunks: Buffer[]): Promise<EventMessage[]> {
  const out: EventMessage[] = [];
  for await (const m of decodeEventStream(chunks)) out.push(m);
  return out;
}

const rejects = async (chunks: Buffer[], re: RegExp): Promise<void> => {
  try {
    await decode(chunks);
  } catch (err) {
    const cause = (err as { cause?: Error }).cause;
    assert.match(cause?.message ?? "", re);
    return;
  }
  assert.unreachable("should have thrown");
};

// ---

const decoding = suite("decodeEventStream");
const records = encodeEventMessage({ ":message-type": "event", ":event-type": "Records" }, Buffer.from("a,1\nb,2\n"));
const end = encodeEventMessage({ ":message-type": "event", ":event-type": "End" }, Buffer.alloc(0));

decoding("should decode messages split at every byte boundary :: incremental", async () => {
  const whole = Buffer.concat([records, end]);
  const chunks = [...whole].map((b) => Buffer.from([b]));
  const messages = await decode(chunks);
  assert.is(messages.length, 2);
  assert.equal(messages[0]?.headers, { ":message-type": "event", ":event-type": "Records" });
  assert.is(messages[0]?.payload.toString(), "a,1\nb,2\n");
  assert.is(messages[1]?.headers[":event-type"], "End");
});

decoding("should reject a flipped payload byte :: message CRC", async () => {
  const bad = Buffer.from(records);
  bad.writeUInt8(bad.readUInt8(bad.length - 6) ^ 1, bad.length - 6);
  await rejects([bad], /message CRC mismatch/);
});

decoding("should reject a damaged prelude :: prelude CRC", async () => {
  const bad = Buffer.from(records);
  bad.writeUInt8(bad.readUInt8(2) ^ 1, 2);
  await rejects([bad], /prelude CRC mismatch/);
});

decoding("should reject a stream that ends inside a message :: truncated", async () => {
  await rejects([records.subarray(0, records.length - 3)], /ended inside a message/);
});

decoding.run();
