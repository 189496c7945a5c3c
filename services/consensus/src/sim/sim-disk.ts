import type { Entry, HardState, PersistedState, Ready, Snapshot } from "../domain/types.js";

/** What survives a crash in the simulator: only what a Ready persisted. */
export interface SimDisk {
  hardState: HardState;
  snapshot: Snapshot | undefined;
  entries: Entry[];
}

export function createSimDisk(): SimDisk {
  return { hardState: { term: 0, votedFor: "", commit: 0 }, snapshot: undefined, entries: [] };
}

export function diskTermAt(disk: SimDisk, index: number): number | undefined {
  const base = disk.snapshot?.meta.index ?? 0;
  if (index === base) return disk.snapshot?.meta.term ?? 0;
  return disk.entries[index - base - 1]?.term;
}

/** Applies the persist part of a Ready, in the order a real store must. */
export function persistReady(disk: SimDisk, ready: Ready): void {
  if (ready.snapshot) {
    const s = ready.snapshot;
    const base = disk.snapshot?.meta.index ?? 0;
    const keep = diskTermAt(disk, s.meta.index) === s.meta.term ? disk.entries.slice(s.meta.index - base) : [];
    // The simulated disk keeps bytes (a view when the core held them in memory).
    disk.snapshot = { meta: s.meta, data: s.data.subarray(0, s.data.length) };
    disk.entries = keep;
  }
  const first = ready.entries[0];
  if (first) {
    const base = disk.snapshot?.meta.index ?? 0;
    const at = first.index - base - 1;
    if (at < 0 || at > disk.entries.length) throw new Error(`persist: entry ${first.index} does not follow the stored log (base ${base}, ${disk.entries.length} entries)`);
    disk.entries = disk.entries.slice(0, at).concat(ready.entries);
  }
  if (ready.hardState) disk.hardState = ready.hardState;
}

export function loadDisk(disk: SimDisk): PersistedState {
  return { hardState: disk.hardState, snapshot: disk.snapshot, entries: [...disk.entries] };
}
