import { setTimeout as delay } from "node:timers/promises";

/** Waits until `bytes` more fit under the rate; one limiter is shared by every transfer of a direction. */
export type RateLimiter = (bytes: number) => Promise<void>;

/** --limit-upload / --limit-download: bytes per second over the whole run. */
export function createRateLimiter(bytesPerSecond: number, now: () => number = Date.now): RateLimiter {
  const started = now();
  let booked = 0;
  return async (bytes) => {
    booked += bytes;
    const wait = started + (booked / bytesPerSecond) * 1000 - now();
    if (wait > 0) await delay(wait);
  };
}
