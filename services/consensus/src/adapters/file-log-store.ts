import { mkdir, open as openFile, readdir, readFile, rm, truncate, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "@mc/shared";
import type { Entry, HardState, PersistedState, Ready, Snapshot } from "../domain/types.js";
import { encodeRecord, readRecord, type LogRecord } from "./log-records.js";
import { readSnapshotFile, syncDir, writeSnapshotFile } from "./snapshot-file.js";

export interface FileLogStoreOptions {
  readonly dir: string;
  /** 32-byte root key (the HSM-derived state key): every record is sealed under it. */
  readonly rootKey: Uint8Array;
  /** Start a new segment once the current one is larger (default 4 MiB). */
  readonly segmentBytes?: number;
}

export interface LoadedState extends PersistedState {
  /** Set when a torn tail was cut off at start: what was removed. */
  readonly repaired: string | undefined;
}

/** The durable Raft log: segmented, checksummed, sealed, fsynced before persist() resolves. */
export interface LogStore {
  load(): Promise<LoadedState>;
  persist(ready: Pick<Ready, "hardState" | "entries" | "snapshot">): Promise<void>;
  close(): Promise<void>;
}

interface Segment {
  readonly name: string;
  maxIndex: number;
  size: number;
}

const segmentName = (n: number): string => `log-${String(n).padStart(12, "0")}.seg`;

export function createFileLogStore(options: FileLogStoreOptions): LogStore {
  const { dir, rootKey } = options;
  const segmentBytes = options.segmentBytes ?? 4 * 1024 * 1024;
  let segments: Segment[] = [];
  let fh: FileHandle | undefined;
  let hard: HardState = { term: 0, votedFor: "", commit: 0 };
  // Terms of the stored entries (termBase + 1 ...), to decide whether a new
  // snapshot keeps the suffix, as the core's log does.
  let termBase = 0;
  let termBaseTerm = 0;
  let terms: number[] = [];
  const storedTerm = (i: number): number | undefined => (i === termBase ? termBaseTerm : terms[i - termBase - 1]);

  async function openSegment(name: string): Promise<void> {
    await fh?.close();
    fh = await openFile(join(dir, name), "a");
  }

  async function rotate(): Promise<void> {
    const last = segments.at(-1);
    const next = last ? Number(/\d+/.exec(last.name)?.[0] ?? 0) + 1 : 1;
    const name = segmentName(next);
    await openSegment(name);
    segments.push({ name, maxIndex: 0, size: 0 });
    await syncDir(dir);
    // Every segment starts with the hard state, so deleting older segments never loses it.
    await append([{ kind: "hard", hardState: hard }]);
  }

  async function append(records: readonly LogRecord[], sync = true): Promise<void> {
    const seg = segments.at(-1);
    if (!fh || !seg) throw new AppError("internal", "consensus log store is not open");
    const parts = records.map((r) => encodeRecord(rootKey, r));
    const buf = Buffer.concat(parts);
    await fh.write(buf);
    if (sync) await fh.datasync();
    seg.size += buf.length;
    for (const r of records) if (r.kind === "entry") seg.maxIndex = Math.max(seg.maxIndex, r.entry.index);
  }

  async function compact(index: number): Promise<void> {
    const keep: Segment[] = [];
    for (const [i, seg] of segments.entries()) {
      if (i < segments.length - 1 && seg.maxIndex <= index) await rm(join(dir, seg.name), { force: true });
      else keep.push(seg);
    }
    if (keep.length !== segments.length) await syncDir(dir);
    segments = keep;
  }

  return {
    async load() {
      await mkdir(dir, { recursive: true });
      const snapshot = await readSnapshotFile(dir, rootKey);
      const names = (await readdir(dir)).filter((n) => /^log-\d+\.seg$/.test(n)).sort();
      let base = 0;
      let baseTerm: number | undefined = 0;
      let entries: Entry[] = [];
      let repaired: string | undefined;
      const termAt = (i: number): number | undefined => (i === base ? baseTerm : entries[i - base - 1]?.term);
      segments = [];
      for (const [n, name] of names.entries()) {
        const path = join(dir, name);
        const buf = await readFile(path);
        const seg: Segment = { name, maxIndex: 0, size: 0 };
        let offset = 0;
        let count = 0;
        while (offset < buf.length) {
          const r = readRecord(rootKey, buf, offset);
          if (!r.ok) {
            const length = buf.length - offset >= 4 ? buf.readUInt32BE(offset) : 0;
            const isTail = n === names.length - 1 && (r.problem === "truncated" || offset + 17 + length >= buf.length);
            if (!isTail) {
              const what = r.problem === "checksum" ? "checksum mismatch" : r.problem === "unsealed" ? "record does not open under the root key" : "record cut short";
              throw new AppError("internal", `consensus log ${path} is corrupt at byte ${offset} (record ${count}: ${what}) and valid data follows, so this is not a torn write; refusing to start: restore the node from a peer`);
            }
            await truncate(path, offset);
            repaired = `torn tail of ${name} cut at byte ${offset} (${buf.length - offset} bytes, ${r.problem})`;
            break;
          }
          const rec = r.record;
          if (rec.kind === "hard") hard = rec.hardState;
          else if (rec.kind === "snapshot") {
            entries = rec.keep ? entries.filter((e) => e.index > rec.index) : [];
            base = rec.index;
            baseTerm = rec.term;
          } else {
            const e = rec.entry;
            seg.maxIndex = Math.max(seg.maxIndex, e.index);
            if (entries.length === 0 && e.index > base + 1) {
              // Older segments were compacted away: this segment starts mid-log.
              base = e.index - 1;
              baseTerm = undefined;
            }
            if (e.index > base) {
              if (e.index - base - 1 > entries.length) throw new AppError("internal", `consensus log ${path} has a gap before entry ${e.index}; refusing to start`);
              entries.length = e.index - base - 1;
              entries.push(e);
            }
          }
          offset += r.size;
          count++;
        }
        seg.size = offset;
        segments.push(seg);
      }
      if (snapshot) {
        const s = snapshot.meta;
        if (s.index < base) throw new AppError("internal", `consensus log in ${dir} needs a snapshot at ${base} or later but the snapshot file is at ${s.index}; refusing to start`);
        if (s.index > base || baseTerm !== undefined) entries = termAt(s.index) === s.term ? entries.slice(s.index - base) : [];
      } else if (base > 0) {
        throw new AppError("internal", `consensus log in ${dir} starts after entry ${base} but there is no snapshot; refusing to start`);
      }
      termBase = snapshot?.meta.index ?? 0;
      termBaseTerm = snapshot?.meta.term ?? 0;
      terms = entries.map((e) => e.term);
      const last = segments.at(-1);
      if (last) await openSegment(last.name);
      else await rotate();
      return { hardState: hard, snapshot, entries, repaired };
    },
    async persist(ready) {
      const records: LogRecord[] = [];
      const snap: Snapshot | undefined = ready.snapshot;
      if (snap) {
        await writeSnapshotFile(dir, rootKey, snap);
        const keep = storedTerm(snap.meta.index) === snap.meta.term;
        records.push({ kind: "snapshot", index: snap.meta.index, term: snap.meta.term, keep });
        terms = keep ? terms.slice(snap.meta.index - termBase) : [];
        termBase = snap.meta.index;
        termBaseTerm = snap.meta.term;
      }
      for (const entry of ready.entries) {
        records.push({ kind: "entry", entry });
        terms.length = Math.max(0, entry.index - termBase - 1);
        terms.push(entry.term);
      }
      // Only entries, a term or a vote must be durable before anything is sent;
      // a commit index alone may be lost in a crash and is learned again (as etcd does).
      let sync = records.length > 0;
      if (ready.hardState) {
        if (ready.hardState.term !== hard.term || ready.hardState.votedFor !== hard.votedFor) sync = true;
        hard = ready.hardState;
        records.push({ kind: "hard", hardState: hard });
      }
      if (records.length > 0) await append(records, sync);
      if ((segments.at(-1)?.size ?? 0) > segmentBytes) await rotate();
      if (snap) await compact(snap.meta.index);
    },
    async close() {
      await fh?.close();
      fh = undefined;
    },
  };
}
