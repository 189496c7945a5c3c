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
