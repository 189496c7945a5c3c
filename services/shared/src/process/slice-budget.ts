import { setImmediate as nextTurn } from "node:timers/promises";
import { wholeMs } from "./whole-ms.js";

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

/** How much background work may take, and must get (pacedBudget). */
export interface Pace {
  /** At most this share of a core over the run: it sleeps while ahead. Asked at every slice, so it may follow the load. */
  readonly cap: number | (() => number);
  /**
   * At least this share of the event loop however busy it is (default 0):
   * while behind, a slice runs on up to `maxSliceMs`. Without it, work that
   * yields after every short slice gets one slice per turn of a busy loop
   * and may never finish.
   */
  readonly floor?: number;
  /** Longest slice while catching up to the floor (default 2 ms). */
  readonly maxSliceMs?: number;
}

/** Neither capped nor owed anything: sliceBudget's behaviour. */
export const fullSpeed: Pace = { cap: 1 };

/**
 * Floor time owed carries over up to this many ms (a turn of the loop that
 * ran long is made up for, within bounds). Unused cap does not carry over:
 * a quiet stretch is no licence for a burst once the cap applies again.
 */
const carryMs = 50;

/**
 * `sliceBudget` for background work kept between a floor and a cap (Pace).
 * After each slice of at least `ms` it yields: it sleeps while it is ahead
 * of its cap, and runs on while it is behind its floor.
 */
export function pacedBudget(ms: number, pace: Pace): SliceBudget {
  const { cap: given } = pace;
  const capNow = typeof given === "number" ? () => given : given;
  const floor = pace.floor ?? 0;
  const maxSlice = Math.max(ms, pace.maxSliceMs ?? 2);
  let start = performance.now();
  let last = start;
  // Work done beyond the cap, and owed below the floor, in ms.
  let over = 0;
  let under = 0;
  return {
    async pause() {
      const now = performance.now();
      if (now - start < ms) return;
      const cap = Math.min(1, Math.max(0.01, capNow()));
      const dt = now - last;
      const worked = now - Math.max(start, last);
      last = now;
      over = Math.max(0, over + worked - cap * dt);
      under = Math.min(carryMs, under + floor * dt - worked);
      if (under > 0 && over <= 0 && now - start < maxSlice) return;
      if (over >= 1) await new Promise((r) => setTimeout(r, wholeMs(over / cap)));
      else await nextTurn();
      start = performance.now();
    },
  };
}
