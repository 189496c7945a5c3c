import { writeSync } from "node:fs";
import { open as openFile, type FileHandle } from "node:fs/promises";
import { writeFileAtomic } from "@mc/shared/node";
import { encodeFileHeader, encodeMark, encodeRecord, markOffset, recordsStart, type FileHeader, type Mark } from "./file-log-store-format.js";

export interface NewRecord {
  readonly kind: number;
  readonly plain: Uint8Array;
}

export interface RecordFileWriter {
  /** End of the records written so far. */
  readonly end: number;
  /** Writes records after the last; with `sync`, fsyncs them and then moves the commit mark over them. */
  append(records: readonly NewRecord[], sync: boolean): Promise<void>;
  /** Makes everything written so far acknowledged (fsync, mark, fsync). */
  commit(closed?: boolean): Promise<void>;
  close(): Promise<void>;
}

export interface WriterState {
  /** Where the next record goes (after cutting anything beyond). */
  readonly end: number;
  readonly nextSeq: number;
  readonly mark: Mark;
}

/** Temporary names start with this; a reader skips them and a successful start removes them. */

/**
 * Positional write of all of `buf` (a short write continues where it
 * stopped). Synchronous on purpose: it only copies into the page cache (the
 * fdatasync after it, which waits for the disk, stays off the event loop),
 * and a thread-pool round trip per write cost more than the copy (issue 21:
 * the log's two writes per persist were a tenth of a committed creation's CPU
 * on a busy leader). An error surfaces as before, as a rejected promise.
 */
async function writeAt(fh: FileHandle, buf: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < buf.length) done += writeSync(fh.fd, buf, done, buf.length - done, position + done);
}

function encodeAll(key: Uint8Array, header: FileHeader, firstSeq: number, records: readonly NewRecord[]): Uint8Array {
  return Buffer.concat(records.map((r, i) => encodeRecord(key, header, firstSeq + i, r.kind, r.plain)));
}

/**
 * Creates a complete record file atomically: temp file, fsync, rename,
 * fsync of the directory. Both marks cover every record, so a crash leaves
 * either no file or a whole one. Resolves with where the records end.
 */
export async function createRecordFile(path: string, key: Uint8Array, header: FileHeader, records: readonly NewRecord[], closed = false): Promise<{ end: number }> {
  const body = encodeAll(key, header, 0, records);
  const head = encodeFileHeader(header);
  const end = recordsStart + body.length;
  const mark = encodeMark(key, head, { seq: 0, end, closed });
  await writeFileAtomic(path, Buffer.concat([head, mark, mark, body]), 0o600);
  // Where the records end (the file's size): an appender opens there without reading the file back.
  return { end };
}

/**
 * Opens a record file that `readRecordFile` accepted, for appending. A torn
 * tail beyond `state.end` is cut first and the mark moved over what remains,
 * so nothing the caller is about to use rests on an unacknowledged byte.
 */
export async function openRecordFile(path: string, key: Uint8Array, header: FileHeader, state: WriterState, size: number): Promise<RecordFileWriter> {
  const fh: FileHandle = await openFile(path, "r+");
  const head = encodeFileHeader(header);
  let end = state.end;
  let seq = state.nextSeq;
  let mark = state.mark;
  let dirty = false;
  let failed: unknown;

  // After a failed write or fsync the file's state is unknown (an fsync error
  // is not retried: the kernel may have dropped the pages): refuse every
  // later write; a restart reads and checks the file again.
  async function guarded(step: () => Promise<void>): Promise<void> {
    if (failed !== undefined) throw new Error("the log file failed earlier; restart the node", { cause: failed });
    try {
      await step();
    } catch (err) {
      failed = err;
      throw err;
    }
  }

  async function writeMark(closed: boolean): Promise<void> {
    mark = { seq: mark.seq + 1, end, closed };
    await writeAt(fh, encodeMark(key, head, mark), markOffset(mark.seq));
    await fh.datasync();
  }

  if (size > end) {
    await fh.truncate(end);
    await fh.datasync();
  }
  if (mark.end !== end) await writeMark(mark.closed);

  return {
    get end() {
      return end;
    },
    async append(records, sync) {
      await guarded(async () => {
        if (records.length > 0) {
          const buf = encodeAll(key, header, seq, records);
          await writeAt(fh, buf, end);
          end += buf.length;
          seq += records.length;
          dirty = true;
        }
        if (sync && dirty) {
          // Records first, then the mark that vouches for them: never the other way round.
          await fh.datasync();
          dirty = false;
          await writeMark(false);
        }
      });
    },
    async commit(closed = false) {
      await guarded(async () => {
        if (dirty) await fh.datasync();
        dirty = false;
        if (mark.end !== end || mark.closed !== closed) await writeMark(closed);
      });
    },
    close: () => fh.close(),
  };
}
