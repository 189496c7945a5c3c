import { blake2b, seal } from "@mc/wasm";
import { crc32 } from "./crc32.js";

/**
 * The record-file format (v2) shared by the Raft segments and the KMS's
 * single-node log. Layout:
 *
 *   0    64  file header: magic "mcrec2\n\0", tag (8 ASCII bytes), store id
 *            (16 bytes, one per data directory), u64 base (segment number or
 *            first log index), zeros, crc32 of bytes 0..60
 *   64   32  commit mark A   } "mark", u64 seq, u64 end, u8 closed, 11-byte MAC
 *   96   32  commit mark B   } (keyed BLAKE2b over the file header and the mark);
 *                              written alternately, the higher valid seq counts
 *   128  ... records: u32 body length, u64 seq, u8 kind, 3 zeros, u32 crc32
 *            of the body, u32 crc32 of the 20 header bytes before it; then
 *            the body, sealed with associated data (tag, store id, base, seq, kind)
 *
 * A record's position (store, file, sequence number) is bound into its
 * seal, so a record moved, replayed or taken from another file fails. The
 * mark's `end` is written (and fsynced) only after the records up to it
 * were fsynced: bytes before it were acknowledged, bytes after it never
 * were, which is what lets a reader tell a torn tail from lost records.
 */
export const magic = new TextEncoder().encode("mcrec2\n\0");
export const fileHeaderBytes = 64;
export const markBytes = 32;
export const recordsStart = fileHeaderBytes + 2 * markBytes;
export const recordHeaderBytes = 24;
/** No record is larger (a KMS command is at most about 1 MiB); a longer length is damage, never a short write. */
export const maxRecordBytes = 16 * 1024 * 1024;

export interface FileHeader {
  /** File kind, at most 8 ASCII characters ("raft-seg", "kms-log"). */
  readonly tag: string;
  /** 16 bytes naming the data directory the file belongs to. */
  readonly storeId: Uint8Array;
  readonly base: number;
}

export interface Mark {
  readonly seq: number;
  /** Bytes [0, end) hold acknowledged (fsynced) records. */
  readonly end: number;
  /** A later segment exists: nothing is appended here any more. */
  readonly closed: boolean;
}

const markMagic = new TextEncoder().encode("mark");
const encoder = new TextEncoder();

export function tagBytes(tag: string): Uint8Array {
  const out = new Uint8Array(8);
  out.set(encoder.encode(tag).subarray(0, 8));
  return out;
}

export function encodeFileHeader(h: FileHeader): Uint8Array {
  const out = new Uint8Array(fileHeaderBytes);
  const view = new DataView(out.buffer);
  out.set(magic, 0);
  out.set(tagBytes(h.tag), 8);
  out.set(h.storeId.subarray(0, 16), 16);
  view.setBigUint64(32, BigInt(h.base));
  view.setUint32(60, crc32(out.subarray(0, 60)));
  return out;
}

const markKeys = new WeakMap<Uint8Array, Uint8Array>();
const markLabel = new TextEncoder().encode("mcrec2 commit mark");

/** The marks' MAC key, derived from the root key (never the sealing key itself). */
function markKey(key: Uint8Array): Uint8Array {
  let k = markKeys.get(key);
  if (!k) {
    k = blake2b(markLabel, 32, key);
    markKeys.set(key, k);
  }
  return k;
}

const macOf = (key: Uint8Array, header: Uint8Array, body: Uint8Array): Uint8Array => {
  const input = new Uint8Array(60 + body.length);
  input.set(header.subarray(0, 60), 0);
  input.set(body, 60);
  return blake2b(input, 16, markKey(key)).subarray(0, markBytes - 21);
};

/**
 * A commit mark, authenticated (with the file header it belongs to) under a
 * key derived from the root key: a forged or moved mark cannot make
 * acknowledged records look unacknowledged.
 */
export function encodeMark(key: Uint8Array, header: Uint8Array, m: Mark): Uint8Array {
  const out = new Uint8Array(markBytes);
  const view = new DataView(out.buffer);
  out.set(markMagic, 0);
  view.setBigUint64(4, BigInt(m.seq));
  view.setBigUint64(12, BigInt(m.end));
  out[20] = m.closed ? 1 : 0;
  out.set(macOf(key, header, out.subarray(0, 21)), 21);
  return out;
}

/** The mark in `bytes`, or undefined when it does not check out for this file. */
export function decodeMark(key: Uint8Array, header: Uint8Array, bytes: Uint8Array): Mark | undefined {
  if (bytes.length !== markBytes) return undefined;
  const mac = macOf(key, header, bytes.subarray(0, 21));
  if (!mac.every((b, i) => bytes[21 + i] === b)) return undefined;
  if (!markMagic.every((b, i) => bytes[i] === b) || (bytes[20] ?? 2) > 1) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { seq: Number(view.getBigUint64(4)), end: Number(view.getBigUint64(12)), closed: bytes[20] === 1 };
}

/** Where mark number `seq` is written: the slots alternate. */
export const markOffset = (seq: number): number => fileHeaderBytes + (seq % 2) * markBytes;

export function recordAd(h: FileHeader, seq: number, kind: number): Uint8Array {
  const out = new Uint8Array(8 + 8 + 16 + 8 + 8 + 1);
  const view = new DataView(out.buffer);
  out.set(magic, 0);
  out.set(tagBytes(h.tag), 8);
  out.set(h.storeId.subarray(0, 16), 16);
  view.setBigUint64(32, BigInt(h.base));
  view.setBigUint64(40, BigInt(seq));
  out[48] = kind;
  return out;
}

export function encodeRecord(key: Uint8Array, h: FileHeader, seq: number, kind: number, plain: Uint8Array): Uint8Array {
  const body = seal(key, plain, recordAd(h, seq, kind));
  const out = new Uint8Array(recordHeaderBytes + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, body.length);
  view.setBigUint64(4, BigInt(seq));
  out[12] = kind;
  view.setUint32(16, crc32(body));
  view.setUint32(20, crc32(out.subarray(0, 20)));
  out.set(body, recordHeaderBytes);
  return out;
}

export interface RecordHeader {
  readonly length: number;
  readonly seq: number;
  readonly kind: number;
  readonly bodyCrc: number;
}

/** The record header at `at`, or undefined when its own checksum fails. */
export function decodeRecordHeader(buf: Uint8Array, at: number): RecordHeader | undefined {
  const view = new DataView(buf.buffer, buf.byteOffset + at, recordHeaderBytes);
  if (view.getUint32(20) !== crc32(buf.subarray(at, at + 20))) return undefined;
  return { length: view.getUint32(0), seq: Number(view.getBigUint64(4)), kind: buf[at + 12] ?? 0, bodyCrc: view.getUint32(16) };
}

/** True when the buffer starts like a v2 record file (otherwise it may be the first format). */
export function hasMagic(buf: Uint8Array): boolean {
  return buf.length >= magic.length && magic.every((b, i) => buf[i] === b);
}

/**
 * The file cut after the record ending at `end`, with both commit marks
 * moved to `end`: what an operator's explicit recovery writes (the caller
 * checks the result with the reader before using it).
 */
export function cutRecordFile(buf: Uint8Array, end: number, key: Uint8Array): Uint8Array {
  const mark = encodeMark(key, buf.subarray(0, fileHeaderBytes), { seq: 0, end, closed: false });
  const out = new Uint8Array(end);
  out.set(buf.subarray(0, fileHeaderBytes), 0);
  out.set(mark, fileHeaderBytes);
  out.set(mark, fileHeaderBytes + markBytes);
  out.set(buf.subarray(recordsStart, end), recordsStart);
  return out;
}
