import type { Entry, HeldSnapshot } from "./types.js";

/**
 * The in-memory log of one node: a snapshot base plus the entries after it.
 * `unstableFrom` tracks the lowest index changed since the last Ready, i.e.
 * what must still be persisted.
 */
export interface RaftLog {
  readonly snapshot: HeldSnapshot | undefined;
  snapshotIndex(): number;
  snapshotTerm(): number;
  firstIndex(): number;
  lastIndex(): number;
  lastTerm(): number;
  /** undefined when the index is compacted away or beyond the end. */
  termAt(index: number): number | undefined;
  entry(index: number): Entry | undefined;
  slice(from: number, to: number): Entry[];
  /** Truncates from entries[0].index and appends. */
  append(entries: readonly Entry[]): void;
  /** Drops entries up to the snapshot; keeps a suffix that matches it. */
  installSnapshot(snapshot: HeldSnapshot): void;
  /** The same snapshot's bytes from elsewhere (its file); false, and nothing changes, unless the base is that snapshot. */
  holdSnapshotData(meta: { readonly index: number; readonly term: number }, data: HeldSnapshot["data"]): boolean;
  takeUnstable(): Entry[];
}

export function createRaftLog(snapshot: HeldSnapshot | undefined, entries: readonly Entry[]): RaftLog {
  let snap = snapshot;
  let log: Entry[] = [...entries];
  let unstableFrom = Infinity;
  const base = (): number => snap?.meta.index ?? 0;
  const baseTerm = (): number => snap?.meta.term ?? 0;
  const lastIndex = (): number => base() + log.length;
  const entry = (i: number): Entry | undefined => (i > base() ? log[i - base() - 1] : undefined);
  const termAt = (i: number): number | undefined => (i === base() ? baseTerm() : entry(i)?.term);
  return {
    get snapshot() {
      return snap;
    },
    snapshotIndex: base,
    snapshotTerm: baseTerm,
    firstIndex: () => base() + 1,
    lastIndex,
    lastTerm: () => termAt(lastIndex()) ?? 0,
    termAt,
    entry,
    slice: (from, to) => log.slice(Math.max(from, base() + 1) - base() - 1, Math.max(0, to - base())),
    append(list) {
      const first = list[0];
      if (!first) return;
      if (first.index <= base() || first.index > lastIndex() + 1) throw new Error(`append at ${first.index} outside ${base()}..${lastIndex() + 1}`);
      // In place: copying the whole log on every append made a leader's appends cost the entries
      // since the last snapshot each (tens of thousands at a million keys), a large array and fresh
      // pages per batch. Nothing outside holds `log` (slices are copies).
      log.length = first.index - base() - 1;
      for (const e of list) log.push(e);
      unstableFrom = Math.min(unstableFrom, first.index);
    },
    installSnapshot(s) {
      const keep = termAt(s.meta.index) === s.meta.term ? log.slice(s.meta.index - base()) : [];
      snap = s;
      log = keep;
      unstableFrom = keep.length === 0 ? Infinity : Math.max(unstableFrom, s.meta.index + 1);
    },
    holdSnapshotData(meta, data) {
      if (!snap || snap.meta.index !== meta.index || snap.meta.term !== meta.term || snap.data.length !== data.length) return false;
      snap = { meta: snap.meta, data };
      return true;
    },
    takeUnstable() {
      if (unstableFrom > lastIndex()) {
        unstableFrom = Infinity;
        return [];
      }
      const out = log.slice(unstableFrom - base() - 1);
      unstableFrom = Infinity;
      return out;
    },
  };
}
