import { wholeMs } from "@mc/shared/node";

/**
 * "The node's state may have changed": notified each time a Ready is queued
 * (every step, proposal and tick), so callers waiting on the core's status
 * (a known leader, a caught-up learner, a finished transfer) re-check exactly
 * then, instead of sleeping a fixed time between checks.
 */
export interface StateSignal {
  notify(): void;
  /**
   * Re-checks `check` at every change until it returns a value; undefined
   * once `timeoutMs` passed without one.
   */
  until<T>(check: () => T | undefined, timeoutMs: number): Promise<T | undefined>;
}

export function createStateSignal(): StateSignal {
  let wake: Array<() => void> = [];

  /** Resolves at the next notify(), or after `maxMs`. */
  function next(maxMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, wholeMs(maxMs));
      timer.unref();
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      wake.push(done);
    });
  }

  return {
    notify() {
      const waiting = wake;
      wake = [];
      for (const w of waiting) w();
    },
    async until(check, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = check();
        if (value !== undefined) return value;
        const left = deadline - Date.now();
        if (left <= 0) return undefined;
        await next(left);
      }
    },
  };
}
