import { setTimeout as delay } from "node:timers/promises";

export interface WaitOptions {
  readonly timeoutMs?: number;
  readonly intervalMs?: number;
  /** Said in the error when the condition never holds. */
  readonly what: string;
}

/**
 * Polls `check` until it returns a value other than undefined/false, or fails
 * after the timeout with the last error seen. Readiness, never a fixed sleep.
 */
export async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, options: WaitOptions): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10000);
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const why = last instanceof Error ? `: ${last.message}` : "";
      throw new Error(`timed out waiting for ${options.what}${why}`);
    }
    await delay(options.intervalMs ?? 25);
  }
}
