import { setImmediate as nextTurn } from "node:timers/promises";

export interface SliceBudget {
  /** Yields to the event loop once the current slice has run `ms` or longer; otherwise returns at once. */
  pause(): Promise<void>;
}

/**
 * Cuts long work into slices that let timers and I/O run between them: a
 * Raft node must answer heartbeats within its election timeout while it
 * encodes or seals a large snapshot. `setImmediate` rather than a timer, so
 * a slice resumes right after pending I/O instead of a millisecond later.
 */
export function sliceBudget(ms = 4): SliceBudget {
  let start = performance.now();
  return {
    async pause() {
      if (performance.now() - start < ms) return;
      await nextTurn();
      start = performance.now();
    },
  };
}

/**
 * `sliceBudget` for background work that may use at most `share` of one
 * core over its run (0 < share ≤ 1): after a slice it sleeps as long as it
 * is ahead of that rate.
 */
export function pacedBudget(ms: number, share: number): SliceBudget {
  const began = performance.now();
  let start = began;
  let worked = 0;
  return {
    async pause() {
      const now = performance.now();
      if (now - start < ms) return;
      worked += now - start;
      const ahead = worked / share - (now - began);
      if (ahead >= 1) await new Promise((r) => setTimeout(r, ahead));
      else await nextTurn();
      start = performance.now();
    },
  };
}
