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
 * core (0 < share ≤ 1): after a slice it sleeps as long as it is ahead of
 * that rate. A function is asked at every slice (a share that follows the
 * load); time spent waiting elsewhere is not banked for a later burst.
 */
export function pacedBudget(ms: number, share: number | (() => number)): SliceBudget {
  const shareNow = typeof share === "number" ? () => share : share;
  let start = performance.now();
  // When the work done so far may be finished, at its share of a core.
  let due = start;
  return {
    async pause() {
      const now = performance.now();
      if (now - start < ms) return;
      due = Math.max(due, start) + (now - start) / Math.min(1, Math.max(0.01, shareNow()));
      if (due - now >= 1) await new Promise((r) => setTimeout(r, due - now));
      else await nextTurn();
      start = performance.now();
    },
  };
}
