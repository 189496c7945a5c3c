import { join } from "node:path";
import { createRecordFile, damaged, isRecordFile, openRecordFile, readRecordFile, type Mark, type RecordFileWriter } from "@mc/consensus";
import { open } from "@mc/wasm";

export const logFileName = "log.bin";
const tag = "kms-log";
const commandKind = 1;
const v1Ad = new TextEncoder().encode("kms:log:v1");

export interface LogEntry {
  readonly index: bigint;
  readonly data: Uint8Array;
}

export interface CommandLog {
  /** Appends entries (the next indexes, in order) and makes them durable before resolving. */
  append(entries: readonly LogEntry[]): Promise<void>;
  /**
   * Replaces the log, in one atomic write, with one whose first index is
   * `next` and that holds `keep` (the entries appended after the snapshot
   * that made the older ones redundant; `next`, `next + 1`, ... in order).
   */
  restart(next: bigint, keep?: readonly LogEntry[]): Promise<void>;
  close(): Promise<void>;
}

export interface ReadLog {
  readonly entries: LogEntry[];
  /** Index of the first record the file may hold. */
  readonly base: bigint;
  readonly legacy: boolean;
  /** Where appending continues, for the current format. */
  readonly writer: { readonly end: number; readonly mark: Mark; readonly size: number } | undefined;
  /** A torn tail to cut (never acknowledged): how many bytes and why. */
  readonly torn: { readonly at: number; readonly bytes: number; readonly why: string } | undefined;
}

/** The first format: `u32be(length) ‖ sealed(u64be(index) ‖ command)`; read strictly, a torn tail included. */
function readLogV1(buf: Uint8Array, rootKey: Uint8Array): ReadLog {
  const entries: LogEntry[] = [];
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let at = 0;
  while (at < buf.length) {
    if (at + 4 > buf.length) throw damaged(logFileName, at, "first-format record header cut short");
    const len = view.getUint32(at, false);
    if (at + 4 + len > buf.length) throw damaged(logFileName, at, `first-format record of ${len} bytes runs past the end of the file`);
    let plain: Uint8Array;
    try {
      plain = open(rootKey, buf.subarray(at + 4, at + 4 + len), v1Ad);
    } catch {
      throw damaged(logFileName, at, "first-format record does not open under the root key");
    }
    const index = new DataView(plain.buffer, plain.byteOffset, 8).getBigUint64(0, false);
    const prev = entries.at(-1);
    if (prev && index !== prev.index + 1n) throw damaged(logFileName, at, `entry ${index} follows entry ${prev.index}`);
    entries.push({ index, data: plain.subarray(8) });
    at += 4 + len;
  }
  return { entries, base: entries[0]?.index ?? 0n, legacy: true, writer: undefined, torn: undefined };
}

/**
 * Reads log.bin without changing it. Current format: the shared record file
 * (tag "kms-log", base = first index, record n holds index base + n), so
 * indexes are contiguous by construction and bound into every seal.
 */
export function readLog(buf: Uint8Array, o: { rootKey: Uint8Array; storeId: Uint8Array; legacy: boolean }): ReadLog {
  if (!isRecordFile(buf) && o.legacy) return readLogV1(buf, o.rootKey);
  const c = readRecordFile(buf, { file: logFileName, tag, storeId: o.storeId, key: o.rootKey });
  const base = BigInt(c.header.base);
  const entries = c.records.map((r) => {
    if (r.kind !== commandKind) throw damaged(logFileName, r.offset, `record of unknown kind ${r.kind}`);
    return { index: base + BigInt(r.seq), data: r.plain };
  });
  const torn = c.torn ? { at: c.end, ...c.torn } : undefined;
  return { entries, base, legacy: false, writer: { end: c.end, mark: c.mark, size: buf.length }, torn };
}

/** A new log file (atomic replace) whose first record will be index `next`, holding `entries` (`next`, `next + 1`, ...). */
export function createLog(dir: string, rootKey: Uint8Array, storeId: Uint8Array, next: bigint, entries: readonly LogEntry[] = []): Promise<{ end: number }> {
  return createRecordFile(
    join(dir, logFileName),
    rootKey,
    { tag, storeId, base: Number(next) },
    entries.map((e) => ({ kind: commandKind, plain: e.data })),
  );
}

/**
 * Opens a log that `readLog` accepted in the current format, for appending
 * (cutting a torn tail first). Group commit: one append is one write, one
 * fsync, one commit mark, one fsync.
 */
export async function openCommandLog(dir: string, rootKey: Uint8Array, storeId: Uint8Array, read: ReadLog): Promise<CommandLog> {
  const path = join(dir, logFileName);
  const openWriter = async (base: bigint, state: NonNullable<ReadLog["writer"]>, count: number): Promise<RecordFileWriter> =>
    openRecordFile(path, rootKey, { tag, storeId, base: Number(base) }, { end: state.end, mark: state.mark, nextSeq: count }, state.size);
  if (!read.writer) throw new Error("the log must be in the current format to append");
  let base = read.base;
  let next = base + BigInt(read.entries.length);
  let writer = await openWriter(base, read.writer, read.entries.length);
  return {
    async append(entries) {
      // Record n of the file is index base + n: an index out of turn would be stored as another one.
      entries.forEach((e, i) => {
        if (e.index !== next + BigInt(i)) throw new Error(`log entry ${e.index} out of order (expected ${next + BigInt(i)})`);
      });
      await writer.append(entries.map((e) => ({ kind: commandKind, plain: e.data })), true);
      next += BigInt(entries.length);
    },
    async restart(first, keep = []) {
      keep.forEach((e, i) => {
        if (e.index !== first + BigInt(i)) throw new Error(`kept log entry ${e.index} out of order (expected ${first + BigInt(i)})`);
      });
      if (first + BigInt(keep.length) !== next) throw new Error(`the new log would end at ${first + BigInt(keep.length)}, the log is at ${next}`);
      await writer.close();
      // One atomic replace: a crash leaves the old log (a superset) or the new one, never a log missing kept entries.
      const { end } = await createLog(dir, rootKey, storeId, first, keep);
      base = first;
      // A new file is its header, two marks (seq 0) over its records, and the records: the writer goes on
      // after them. (Reading thousands of kept records back to learn this held up writes after each snapshot.)
      writer = await openWriter(base, { end, mark: { seq: 0, end, closed: false }, size: end }, keep.length);
    },
    close: () => writer.close(),
  };
}
