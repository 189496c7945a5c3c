import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "@mc/shared/errors";
import type { Pace } from "@mc/shared/node";
import type { HardState, PersistedState, Ready, SnapshotData, SnapshotMeta } from "../domain/types.js";
import { damaged } from "./file-log-store-damage.js";
import { readRecordFile } from "./file-log-store-reader.js";
import { replay } from "./file-log-store-replay.js";
import { closeScan, scanLogFolder, segmentName, segmentTag, type Scan } from "./file-log-store-scan.js";
import { createRecordFile, openRecordFile, type RecordFileWriter } from "./file-log-store-writer.js";
import { plainOf, type LogRecord } from "./log-records.js";
import { snapshotFileName, snapshotTag, syncDir, writeSnapshotFile, type SnapshotStream } from "./snapshot-file.js";
import { inMemory, openSnapshotFileData, type FileSnapshotData } from "./snapshot-file-data.js";

export interface FileLogStoreOptions {
  readonly dir: string;
  /** 32-byte root key (the HSM-derived state key): every record is sealed under it. */
  readonly rootKey: Uint8Array;
  /** Start a new segment once the current one is larger (default 4 MiB). */
  readonly segmentBytes?: number;
  /** 16 bytes naming the data directory, bound into every file (default zeros). */
  readonly storeId?: Uint8Array;
  /** Refuse an absent or empty folder rather than start a new log there (its data directory exists, so must the log). */
  readonly mustExist?: boolean;
  /** Also read first-format files, strictly, and rewrite them in the current format. */
  readonly legacy?: boolean;
  /** Prefix of file names in damage reports, e.g. "raft/". */
  readonly label?: string;
  /** Runs once the folder checked out, before load() writes anything (the caller's own deferred writes). */
  readonly onValidated?: () => Promise<void>;
  /** Plain bytes per sealed chunk of the snapshot file (default 256 KiB; tests use small ones). */
  readonly snapshotChunkBytes?: number;
  /**
   * Pace of sealing and writing this node's own snapshot (saveSnapshot,
   * beside the ready loop), default full speed. One received from the leader
   * is written at full speed: the ready loop waits for it.
   */
  readonly snapshotPace?: Pace;
}

export interface LoadedState extends PersistedState {
  /** Set when a torn tail was cut off at start: what was removed. */
  readonly repaired: string | undefined;
}

/** The durable Raft log: segmented, checksummed, sealed, fsynced before persist() resolves. */
export interface LogStore {
  load(): Promise<LoadedState>;
  /**
   * Writes a snapshot of this node's own state machine ahead of the
   * compaction that will carry it through `persist`, which then only records
   * it: sealing and writing a large file never holds up the Readies queued
   * behind the compaction. Skipped when the file already holds this entry or
   * a later one. A crash before the compaction is recorded leaves a snapshot
   * newer than the log records, which load accepts. Its data may come as a
   * stream (SnapshotStream): it is then never whole in memory.
   */
  saveSnapshot(snapshot: { readonly meta: SnapshotMeta; readonly data: SnapshotData | SnapshotStream }): Promise<void>;
  /** Makes a Ready durable; a snapshot in it is written here unless `saveSnapshot` already wrote it (one received from the leader). */
  persist(ready: Pick<Ready, "hardState" | "entries" | "snapshot">): Promise<void>;
  /**
   * The data of snapshot `meta` read back from the snapshot file a piece at a
   * time, once the file holds exactly that snapshot; else undefined, and the
   * caller keeps its copy in memory. The caller closes it.
   */
  snapshotData(meta: { readonly index: number; readonly term: number }): FileSnapshotData | undefined;
  close(): Promise<void>;
}

interface Segment {
  readonly name: string;
  readonly number: number;
  maxIndex: number;
}

export function createFileLogStore(options: FileLogStoreOptions): LogStore {
  const { dir, rootKey } = options;
  const storeId = options.storeId ?? new Uint8Array(16);
  const label = options.label ?? "";
  const segmentBytes = options.segmentBytes ?? 4 * 1024 * 1024;
  let segments: Segment[] = [];
  let writer: RecordFileWriter | undefined;
  let hard: HardState = { term: 0, votedFor: "", commit: 0 };
  // Terms of the stored entries (termBase + 1 ...), to decide whether a new
  // snapshot keeps the suffix, as the core's log does.
  let termBase = 0;
  let termBaseTerm = 0;
  let terms: number[] = [];
  const storedTerm = (i: number): number | undefined => (i === termBase ? termBaseTerm : terms[i - termBase - 1]);
  const headerOf = (number: number) => ({ tag: segmentTag, storeId, base: number });
  const records = (rs: readonly LogRecord[]) => rs.map(plainOf);
  // What snapshot.bin holds, and the chain that writes it one at a time:
  // saveSnapshot runs beside the ready loop, which may store a snapshot
  // received from the leader meanwhile.
  let fileHolds: { index: number; term: number } | undefined;
  let fileWrites: Promise<void> = Promise.resolve();
  const chunking = options.snapshotChunkBytes ? { chunkBytes: options.snapshotChunkBytes } : {};

  function writeSnapshot(snap: { readonly meta: SnapshotMeta; readonly data: SnapshotData | SnapshotStream }, skip: (held: { index: number; term: number }) => boolean, pace?: Pace): Promise<void> {
    const run = fileWrites.then(async () => {
      if (fileHolds && skip(fileHolds)) return;
      await writeSnapshotFile(dir, rootKey, snap, storeId, { ...chunking, ...(pace ? { pace } : {}) });
      fileHolds = { index: snap.meta.index, term: snap.meta.term };
    });
    fileWrites = run.catch(() => undefined);
    return run;
  }

  async function openSegment(seg: Segment): Promise<RecordFileWriter> {
    const path = join(dir, seg.name);
    const buf = await readFile(path);
    const c = readRecordFile(buf, { file: `${label}${seg.name}`, tag: segmentTag, storeId, base: seg.number, key: rootKey });
    return openRecordFile(path, rootKey, c.header, { end: c.end, nextSeq: c.records.length, mark: c.mark }, buf.length);
  }

  async function rotate(): Promise<void> {
    const last = segments.at(-1);
    const seg: Segment = { name: segmentName((last?.number ?? 0) + 1), number: (last?.number ?? 0) + 1, maxIndex: 0 };
    // The old segment is whole and acknowledged before the new one exists, and
    // marked closed after: a missing last segment then shows as damage.
    await writer?.commit();
    // Every segment starts with the hard state, so deleting older segments never loses it.
    await createRecordFile(join(dir, seg.name), rootKey, headerOf(seg.number), records([{ kind: "hard", hardState: hard }]));
    await writer?.commit(true);
    await writer?.close();
    segments.push(seg);
    writer = await openSegment(seg);
  }

  async function compact(index: number): Promise<void> {
    // Only a prefix goes, so the remaining segment numbers stay consecutive.
    let removed = 0;
    while (segments.length > 1 && (segments[0]?.maxIndex ?? Infinity) <= index) {
      await rm(join(dir, segments[0]?.name ?? ""), { force: true });
      segments.shift();
      removed++;
    }
    if (removed > 0) await syncDir(dir);
  }

  /** Rewrites first-format files in the current format, each by atomic replace. */
  async function convert(scan: Scan): Promise<void> {
    if (scan.snapshot?.legacy) await writeSnapshotFile(dir, rootKey, inMemory(scan.snapshot.snapshot), storeId);
    for (const [i, seg] of scan.segments.entries()) {
      if (seg.v2) continue;
      const closed = i < scan.segments.length - 1;
      await createRecordFile(join(dir, seg.name), rootKey, headerOf(seg.number), records(seg.records.map((r) => r.record)), closed);
    }
  }

  return {
    async load() {
      const scan = await scanLogFolder({ dir, key: rootKey, storeId, legacy: options.legacy ?? false, label });
      if (!scan.exists) {
        if (options.mustExist) throw damaged(label, 0, "the log folder is missing or empty");
        await options.onValidated?.();
        await mkdir(dir, { recursive: true, mode: 0o700 });
        for (const t of scan.temps) await rm(join(dir, t), { force: true });
        segments = [];
        await rotate();
        return { hardState: hard, snapshot: undefined, entries: [], repaired: undefined };
      }
      try {
        const r = replay(scan, label);
        // Everything checked out: only now may anything be written.
        await options.onValidated?.();
        await convert(scan);
        for (const t of scan.temps) await rm(join(dir, t), { force: true });
        hard = r.hardState;
        segments = scan.segments.map((s, i) => ({ name: s.name, number: s.number, maxIndex: r.maxIndex[i] ?? 0 }));
        const last = scan.segments.at(-1);
        const torn = last?.v2?.torn;
        const repaired = last && torn ? `torn tail of ${label}${last.name} cut at byte ${last.v2?.end ?? 0} (${torn.bytes} bytes: ${torn.why})` : undefined;
        const tail = segments.at(-1);
        if (tail && last?.v2) {
          const { end, mark } = last.v2;
          writer = await openRecordFile(join(dir, tail.name), rootKey, headerOf(tail.number), { end, mark, nextSeq: last.records.length }, last.size);
        } else if (tail) writer = await openSegment(tail);
        fileHolds = r.snapshot ? { index: r.snapshot.meta.index, term: r.snapshot.meta.term } : undefined;
        termBase = r.snapshot?.meta.index ?? 0;
        termBaseTerm = r.snapshot?.meta.term ?? 0;
        terms = r.entries.map((e) => e.term);
        return { hardState: hard, snapshot: r.snapshot, entries: r.entries, repaired };
      } catch (err) {
        // The caller gets the open snapshot only with the state it belongs to.
        closeScan(scan);
        throw err;
      }
    },
    saveSnapshot(snap) {
      return writeSnapshot(snap, (held) => held.index >= snap.meta.index, options.snapshotPace);
    },
    async persist(ready) {
      if (!writer) throw new AppError("internal", "consensus log store is not open");
      const out: LogRecord[] = [];
      const snap = ready.snapshot;
      if (snap) {
        await writeSnapshot(snap, (held) => held.index === snap.meta.index && held.term === snap.meta.term);
        const keep = storedTerm(snap.meta.index) === snap.meta.term;
        out.push({ kind: "snapshot", index: snap.meta.index, term: snap.meta.term, keep });
        terms = keep ? terms.slice(snap.meta.index - termBase) : [];
        termBase = snap.meta.index;
        termBaseTerm = snap.meta.term;
      }
      const seg = segments.at(-1);
      for (const entry of ready.entries) {
        out.push({ kind: "entry", entry });
        terms.length = Math.max(0, entry.index - termBase - 1);
        terms.push(entry.term);
        if (seg) seg.maxIndex = Math.max(seg.maxIndex, entry.index);
      }
      // Only entries, a term or a vote must be durable before anything is sent;
      // a commit index alone may be lost in a crash and is learned again (as etcd does).
      let sync = out.length > 0;
      if (ready.hardState) {
        if (ready.hardState.term !== hard.term || ready.hardState.votedFor !== hard.votedFor) sync = true;
        hard = ready.hardState;
        out.push({ kind: "hard", hardState: hard });
      }
      if (out.length > 0) await writer.append(records(out), sync);
      if (writer.end > segmentBytes) await rotate();
      if (snap) await compact(snap.meta.index);
    },
    snapshotData(meta) {
      if (fileHolds?.index !== meta.index || fileHolds.term !== meta.term) return undefined;
      return openSnapshotFileData(join(dir, snapshotFileName), `${label}${snapshotFileName}`, { tag: snapshotTag, storeId, key: rootKey }, meta);
    },
    async close() {
      await fileWrites;
      await writer?.close();
      writer = undefined;
    },
  };
}
