import { toBinary } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { EntrySchema } from "../../gen/consensus/v1/consensus_pb.js";
import type { AppendRequest, Entry } from "../domain/types.js";
import { entryToPb } from "./message-codec.js";

// Each entry is encoded once, however many followers (and retries) it goes
// to: the leader's log hands out the same Entry objects to every follower's
// AppendEntries, so the bytes are kept beside them (a WeakMap: dropped with
// the entry on compaction). The request around them is written by hand, in
// field order and skipping zero values as protobuf-es does, so the bytes are
// the same as toBinary(appendRequestToPb(m)) (append-encoding.test.ts).

const encoded = new WeakMap<Entry, Uint8Array>();

function entryBytes(e: Entry): Uint8Array {
  let b = encoded.get(e);
  if (b === undefined) {
    b = toBinary(EntrySchema, entryToPb(e));
    encoded.set(e, b);
  }
  return b;
}

/** AppendEntriesRequest bytes (consensus.proto field numbers 1-7). */
export function encodeAppendRequest(m: AppendRequest): Uint8Array {
  const w = new BinaryWriter();
  if (m.term !== 0) w.tag(1, WireType.Varint).uint64(m.term);
  if (m.from !== "") w.tag(2, WireType.LengthDelimited).string(m.from);
  if (m.prevIndex !== 0) w.tag(3, WireType.Varint).uint64(m.prevIndex);
  if (m.prevTerm !== 0) w.tag(4, WireType.Varint).uint64(m.prevTerm);
  for (const e of m.entries) w.tag(5, WireType.LengthDelimited).bytes(entryBytes(e));
  if (m.commit !== 0) w.tag(6, WireType.Varint).uint64(m.commit);
  if (m.seq !== 0) w.tag(7, WireType.Varint).uint64(m.seq);
  return w.finish();
}
