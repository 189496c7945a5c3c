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

/**
 * The least entries between a cluster member's snapshots. At a sixteenth of
 * the records a million keys already keep 62,500 entries between snapshots
 * (in the log, in memory and replayed at start-up), so a floor of 50,000 adds
 * nothing to the worst case, while below 800,000 keys it lowers the snapshot's
 * share of each write: each entry paid for keys/10,000 records at the old
 * floor of 10,000 (16 at 160,000 keys, about 100 µs of a node's CPU).
 */
export const clusterSnapshotFloor = 50_000;
