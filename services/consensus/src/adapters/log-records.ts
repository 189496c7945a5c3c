import { open, seal } from "@mc/wasm";
import type { Entry, EntryType, HardState } from "../domain/types.js";
import { crc32 } from "./crc32.js";

/**
 * What a Raft log record holds. The current files carry `plainOf(record)`
 * in a record of the shared record-file format (file-log-store-format.ts),
 * kind byte 1, 2 or 3. The first format (`encodeRecordV1`, `readRecordV1`),
 * still read strictly from older data directories, was: [u32 length][u32
 * crc32][u8 kind][f64 index][sealed payload], the payload sealed with
 * "consensus-log|<kind>|<index>" as associated data.
 */
export type LogRecord =
  | { readonly kind: "entry"; readonly entry: Entry }
  | { readonly kind: "hard"; readonly hardState: HardState }
  /** A snapshot was stored; `keep` says whether the entries after it survived (they matched it). */
  | { readonly kind: "snapshot"; readonly index: number; readonly term: number; readonly keep: boolean };

export const recordHeaderBytes = 17;
const kinds = ["entry", "hard", "snapshot"] as const;
const entryTypes: readonly EntryType[] = ["normal", "config", "noop"];
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function indexOf(record: LogRecord): number {
  return record.kind === "entry" ? record.entry.index : record.kind === "snapshot" ? record.index : 0;
}

function associated(kind: string, index: number): Uint8Array {
  return encoder.encode(`consensus-log|${kind}|${index}`);
}

function plain(record: LogRecord): Uint8Array {
  if (record.kind === "entry") {
    const e = record.entry;
    const out = new Uint8Array(18 + e.data.length);
    const view = new DataView(out.buffer);
    out[0] = 1;
    view.setFloat64(1, e.index);
    view.setFloat64(9, e.term);
    out[17] = entryTypes.indexOf(e.type);
    out.set(e.data, 18);
    return out;
  }
  if (record.kind === "hard") {
    const vote = encoder.encode(record.hardState.votedFor);
    const out = new Uint8Array(17 + vote.length);
    const view = new DataView(out.buffer);
    out[0] = 2;
    view.setFloat64(1, record.hardState.term);
    view.setFloat64(9, record.hardState.commit);
    out.set(vote, 17);
    return out;
  }
  const out = new Uint8Array(18);
  const view = new DataView(out.buffer);
  out[0] = 3;
  view.setFloat64(1, record.index);
  view.setFloat64(9, record.term);
  out[17] = record.keep ? 1 : 0;
  return out;
}

/** The record's kind byte and plaintext for the current format. */
export function plainOf(record: LogRecord): { kind: number; plain: Uint8Array } {
  return { kind: kinds.indexOf(record.kind) + 1, plain: plain(record) };
}

/** The record in a current-format plaintext; throws when it does not parse or its kind byte disagrees. */
export function recordOf(kind: number, p: Uint8Array): LogRecord {
  const record = parsePlain(p);
  if (kinds.indexOf(record.kind) + 1 !== kind) throw new Error("record kind mismatch");
  if (record.kind === "entry" && (!Number.isSafeInteger(record.entry.index) || !Number.isSafeInteger(record.entry.term))) throw new Error("bad entry numbers");
  return record;
}

export function encodeRecordV1(key: Uint8Array, record: LogRecord): Uint8Array {
  const index = indexOf(record);
  const sealed = seal(key, plain(record), associated(record.kind, index));
  const out = new Uint8Array(recordHeaderBytes + sealed.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, sealed.length);
  out[8] = kinds.indexOf(record.kind);
  view.setFloat64(9, index);
  out.set(sealed, recordHeaderBytes);
  view.setUint32(4, crc32(out.subarray(8)));
  return out;
}

function parsePlain(p: Uint8Array): LogRecord {
  const view = new DataView(p.buffer, p.byteOffset, p.byteLength);
  if (p[0] === 1) {
    const type = entryTypes[p[17] ?? 255];
    if (!type) throw new Error("unknown entry type");
    return { kind: "entry", entry: { index: view.getFloat64(1), term: view.getFloat64(9), type, data: p.slice(18) } };
  }
  if (p[0] === 2) return { kind: "hard", hardState: { term: view.getFloat64(1), commit: view.getFloat64(9), votedFor: decoder.decode(p.subarray(17)) } };
  if (p[0] === 3) return { kind: "snapshot", index: view.getFloat64(1), term: view.getFloat64(9), keep: p[17] === 1 };
  throw new Error("unknown record kind");
}

export type ReadOutcome =
  | { readonly ok: true; readonly record: LogRecord; readonly size: number }
  | { readonly ok: false; readonly problem: "truncated" | "checksum" | "unsealed" };

/** Reads a first-format record at `offset`; `truncated` when the buffer ends inside it. */
export function readRecordV1(key: Uint8Array, buf: Uint8Array, offset: number): ReadOutcome {
  if (buf.length - offset < recordHeaderBytes) return { ok: false, problem: "truncated" };
  const view = new DataView(buf.buffer, buf.byteOffset + offset, recordHeaderBytes);
  const length = view.getUint32(0);
  const end = offset + recordHeaderBytes + length;
  if (end > buf.length) return { ok: false, problem: "truncated" };
  if (crc32(buf.subarray(offset + 8, end)) !== view.getUint32(4)) return { ok: false, problem: "checksum" };
  const kind = kinds[buf[offset + 8] ?? 255];
  const index = view.getFloat64(9);
  let record: LogRecord;
  try {
    if (!kind) throw new Error("unknown kind");
    record = parsePlain(open(key, buf.subarray(offset + recordHeaderBytes, end), associated(kind, index)));
    if (record.kind !== kind || indexOf(record) !== index) throw new Error("header mismatch");
  } catch {
    return { ok: false, problem: "unsealed" };
  }
  return { ok: true, record, size: end - offset };
}
