import { toBinary } from "@bufbuild/protobuf";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { AppendEntriesRequestSchema } from "../../gen/consensus/v1/consensus_pb.js";
import type { AppendRequest, Entry } from "../domain/types.js";
import { encodeAppendRequest } from "./append-encoding.js";
import { appendRequestToPb } from "./message-codec.js";

const entries: Entry[] = [
  { index: 1, term: 1, type: "noop", data: new Uint8Array(0) },
  { index: 2, term: 1, type: "config", data: new Uint8Array([1, 2, 3]) },
  { index: 2 ** 40, term: 2 ** 33, type: "normal", data: new Uint8Array(300).fill(7) },
  { index: 5, term: 0, type: "normal", data: new TextEncoder().encode("a b%+#é") },
];
const base: AppendRequest = { type: "append", from: "127_0_0_1_7373", to: "f", term: 3, prevIndex: 9, prevTerm: 2, entries: [], commit: 8, seq: 41 };

test("the hand-written request is byte for byte what protobuf-es writes, heartbeats, zeros and large numbers included", () => {
  const cases: AppendRequest[] = [
    base,
    { ...base, entries },
    { ...base, term: 0, from: "", prevIndex: 0, prevTerm: 0, commit: 0, seq: 0 },
    { ...base, term: 1, prevIndex: 1, prevTerm: 1, commit: 1, seq: 1, entries: entries.slice(0, 1) },
    { ...base, entries: entries.slice(2), prevIndex: 2 ** 50, commit: 2 ** 50, seq: 2 ** 52 },
  ];
  for (const m of cases) assert.equal(encodeAppendRequest(m), toBinary(AppendEntriesRequestSchema, appendRequestToPb(m)));
  // Twice through the cache (the second follower): still the same bytes.
  assert.equal(encodeAppendRequest({ ...base, entries }), toBinary(AppendEntriesRequestSchema, appendRequestToPb({ ...base, entries })));
});

test.run();
