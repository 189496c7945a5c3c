import { open } from "@mc/wasm";
import { crc32 } from "./crc32.js";
import { damaged } from "./file-log-store-damage.js";
import {
  decodeMark,
  decodeRecordHeader,
  fileHeaderBytes,
  hasMagic,
  markBytes,
  maxRecordBytes,
  recordAd,
  recordHeaderBytes,
  recordsStart,
  tagBytes,
  type FileHeader,
  type Mark,
} from "./file-log-store-format.js";

export interface RecordFileExpect {
  /** How the file is named in damage reports. */
  readonly file: string;
  readonly tag: string;
  readonly storeId: Uint8Array;
  /** The base the file must have (a segment's number from its name); any when undefined. */
  readonly base?: number;
  readonly key: Uint8Array;
}

export interface FileRecord {
  readonly seq: number;
  readonly kind: number;
  readonly plain: Uint8Array;
  /** Byte offset of the record in its file (for damage reports). */
  readonly offset: number;
}

export interface RecordFileContents {
  readonly header: FileHeader;
  readonly mark: Mark;
  readonly records: FileRecord[];
  /** End of the last whole record: where the next one goes. */
  readonly end: number;
  /** Set when bytes after `end` are a torn tail (never acknowledged); cut them at `end`. */
  readonly torn: { readonly bytes: number; readonly why: string } | undefined;
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

function readHeader(buf: Uint8Array, x: RecordFileExpect): FileHeader {
  if (buf.length < recordsStart) throw damaged(x.file, 0, `the file is ${buf.length} bytes, shorter than its ${recordsStart}-byte header`);
  if (!hasMagic(buf)) throw damaged(x.file, 0, "not a record file (wrong magic)");
  const view = new DataView(buf.buffer, buf.byteOffset, fileHeaderBytes);
  if (view.getUint32(60) !== crc32(buf.subarray(0, 60))) throw damaged(x.file, 0, "file header checksum mismatch");
  if (!sameBytes(buf.subarray(8, 16), tagBytes(x.tag))) throw damaged(x.file, 8, `not a ${x.tag} file`);
  const storeId = buf.slice(16, 32);
  if (!sameBytes(storeId, x.storeId)) throw damaged(x.file, 16, "the file belongs to another data directory");
  const base = Number(view.getBigUint64(32));
  if (x.base !== undefined && base !== x.base) throw damaged(x.file, 32, `the header says ${base} where ${x.base} belongs`);
  return { tag: x.tag, storeId, base };
}

function readMark(buf: Uint8Array, x: RecordFileExpect): Mark {
  const head = buf.subarray(0, fileHeaderBytes);
  const a = decodeMark(x.key, head, buf.subarray(fileHeaderBytes, fileHeaderBytes + markBytes));
  const b = decodeMark(x.key, head, buf.subarray(fileHeaderBytes + markBytes, recordsStart));
  // Only the slot being written can be torn by a crash; the other one still
  // holds the previous mark, which never claims more than is on disk.
  if (!a && !b) throw damaged(x.file, fileHeaderBytes, "both commit marks fail their check (damaged, or sealed under another root key)");
  const mark = !a ? (b as Mark) : !b ? a : a.seq >= b.seq ? a : b;
  if (a && b && a.seq === b.seq && (a.end !== b.end || a.closed !== b.closed)) throw damaged(x.file, fileHeaderBytes, "the two commit marks disagree");
  if (mark.end < recordsStart) throw damaged(x.file, mark.seq % 2 === 0 ? fileHeaderBytes : fileHeaderBytes + markBytes, "the commit mark points into the header");
  if (mark.end > buf.length) throw damaged(x.file, buf.length, `the file ends at byte ${buf.length} but ${mark.end} bytes were acknowledged`);
  return mark;
}

type Step = { readonly ok: true; readonly record: FileRecord; readonly size: number } | { readonly ok: false; readonly what: string; readonly tornIfLast: boolean };

function step(buf: Uint8Array, at: number, seq: number, header: FileHeader, key: Uint8Array): Step {
  if (buf.length - at < recordHeaderBytes) return { ok: false, what: "record header cut short", tornIfLast: true };
  const h = decodeRecordHeader(buf, at);
  if (!h) return { ok: false, what: "record header checksum mismatch", tornIfLast: false };
  if (h.length > maxRecordBytes) return { ok: false, what: `record length ${h.length} is beyond the maximum of ${maxRecordBytes}`, tornIfLast: false };
  const end = at + recordHeaderBytes + h.length;
  if (end > buf.length) return { ok: false, what: `record of ${h.length} bytes runs past the end of the file`, tornIfLast: true };
  if (h.seq !== seq) return { ok: false, what: `record ${h.seq} found where record ${seq} belongs`, tornIfLast: false };
  const body = buf.subarray(at + recordHeaderBytes, end);
  if (crc32(body) !== h.bodyCrc) return { ok: false, what: "record checksum mismatch", tornIfLast: false };
  let plain: Uint8Array;
  try {
    plain = open(key, body, recordAd(header, seq, h.kind));
  } catch {
    return { ok: false, what: "record does not open under the root key", tornIfLast: false };
  }
  return { ok: true, record: { seq, kind: h.kind, plain, offset: at }, size: end - at };
}

const allZero = (b: Uint8Array): boolean => b.every((x) => x === 0);

/**
 * Reads a v2 record file, read-only. Every record before the commit mark
 * must be whole and authentic; after it, whole records are kept (fsynced,
 * only their mark was lost) and the first one that is not is a torn tail
 * only when the structure proves a short write: a header cut short, a
 * header that checks out but whose body runs past the end of the file, or
 * nothing but zeros (blocks allocated but never written). Anything else
 * throws the damage with its offset.
 */
export function readRecordFile(buf: Uint8Array, x: RecordFileExpect): RecordFileContents {
  const header = readHeader(buf, x);
  const mark = readMark(buf, x);
  const records: FileRecord[] = [];
  let at = recordsStart;
  while (at < buf.length) {
    const s = step(buf, at, records.length, header, x.key);
    if (s.ok) {
      if (at < mark.end && at + s.size > mark.end) throw damaged(x.file, at, "record runs past the acknowledged end");
      records.push(s.record);
      at += s.size;
      continue;
    }
    if (at < mark.end) throw damaged(x.file, at, s.what);
    if (s.tornIfLast || allZero(buf.subarray(at))) {
      if (mark.closed) throw damaged(x.file, at, `${s.what} in a closed file`);
      return { header, mark, records, end: at, torn: { bytes: buf.length - at, why: s.tornIfLast ? s.what : "zeros after the last record" } };
    }
    throw damaged(x.file, at, s.what);
  }
  return { header, mark, records, end: at, torn: undefined };
}
