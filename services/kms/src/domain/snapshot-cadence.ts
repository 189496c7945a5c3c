import type { KmsState } from "./state.js";

/** Records a snapshot holds (keys, policies, identities). */
export function recordsIn(state: KmsState): number {
  let n = 0;
  for (const e of state.enclaves.values()) n += e.keys.size + e.policies.size + e.identities.size;
  return n;
}

/**
 * Entries between snapshots: `floor` or a sixteenth of the records, whichever
 * is more. A snapshot costs every record, so at a fixed interval a million
 * keys would be snapshotted without pause (each takes seconds) and every
 * write would pay for a hundred keys; a sixteenth keeps that to 16 records
 * per write and the log replayed at start-up to a sixteenth of the keys.
 */
export const snapshotInterval = (state: KmsState, floor: number): number => Math.max(floor, Math.floor(recordsIn(state) / 16));
