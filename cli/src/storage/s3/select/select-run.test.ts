import { Writable } from "node:stream";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { encodeEventMessage } from "./event-stream.js";
import type { SelectSpec } from "./select-request.js";
import { writeSelectResults, type SelectStats } from "./select-run.js";

const spec: SelectSpec = { query: "select * from S3Object", inputFormat: "csv", input: {}, compression: "NONE", outputFormat: "csv", output: {} };
const event = (type: string, payload = ""): Buffer => encodeEventMessage({ ":message-type": "event", ":event-type": type }, Buffer.from(payload));

async function run(messages: Buffer[]): Promise<{ out: string; stats: SelectStats }> {
  let out = "";
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  const stats = await writeSelectResults(messages, "a/b/k.csv", spec, sink);
  return { out, stats };
}

async function failure(messages: Buffer[]): Promise<{ message: string; cause: Record<string, unknown> }> {
  try {
    await run(messages);
  } catch (err) {
    return { message: (err as Error).message, cause: (err as { cause: Record<string, unknown> }).cause };
  }
  assert.unreachable("should have failed");
  return { message: "", cause: {} };
}

// ---

const results = suite("writeSelectResults");

results("should write records in order and return the server's stats", async () => {
  const stats = "<Stats><BytesScanned>100</BytesScanned><BytesProcessed>90</BytesProcessed><BytesReturned>8</BytesReturned></Stats>";
  const r = await run([event("Records", "a,1\n"), event("Progress", "<Progress/>"), event("Records", "b,2\n"), event("Cont"), event("Stats", stats), event("End")]);
  assert.is(r.out, "a,1\nb,2\n");
  assert.equal(r.stats, { bytesScanned: 100, bytesProcessed: 90, bytesReturned: 8, serverStats: true });
});

results("should turn an error message into an error with the server's code", async () => {
  const err = encodeEventMessage({ ":message-type": "error", ":error-code": "InvalidQuery", ":error-message": "bad column" }, Buffer.alloc(0));
  const f = await failure([event("Records", "a\n"), err]);
  assert.is(f.message, "Unable to run the SQL query on `a/b/k.csv`.");
  assert.equal(f.cause, { code: "InvalidQuery", message: "bad column" });
});

results("should refuse a response that stops before End :: truncated", async () => {
  const f = await failure([event("Records", "a\n")]);
  assert.match(String((f.cause as unknown as Error).message), /ended before its End message/);
});

results("should unwrap Ceph Pacific payloads and their parse failures :: quirks", async () => {
  const r = await run([event("Records", "\n<Payload>\n<Records>\n<Payload>\nalice,30,\nbob,25,\n\n</Payload></Records></Payload>")]);
  assert.is(r.out, "alice,30\nbob,25\n");
  assert.equal(r.stats, { bytesScanned: null, bytesProcessed: null, bytesReturned: 16, serverStats: false });
  const f = await failure([event("Records", "\n<Payload>\n<Records>\n<Payload>\nfailure -->S3Object<---\n</Payload></Records></Payload>")]);
  assert.match(String((f.cause as unknown as Error).message), /could not parse the query near `S3Object`/);
});

results.run();
