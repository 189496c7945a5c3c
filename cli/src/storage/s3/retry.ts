import { setTimeout as delay } from "node:timers/promises";
import { s3Code } from "../../core/errors.js";

const retryableCodes = new Set(["InternalError", "ServiceUnavailable", "SlowDown", "RequestTimeout", "RequestTimeTooSkewed"]);
const retryableErrnos = new Set(["ECONNRESET", "ETIMEDOUT", "EPIPE", "ECONNREFUSED", "EAI_AGAIN", "UND_ERR_SOCKET"]);

/** 5xx answers, throttling and dropped or timed-out connections are worth another try. */
export function isRetryable(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { code?: unknown; statusCode?: unknown; message?: unknown };
  if (retryableCodes.has(s3Code(err))) return true;
  if (typeof e.code === "string" && retryableErrnos.has(e.code)) return true;
  if (typeof e.statusCode === "number" && e.statusCode >= 500) return true;
  return typeof e.message === "string" && /Retryable HTTP status: 5\d\d/.test(e.message);
}

export interface RetryOptions {
  readonly attempts?: number;
  readonly baseMs?: number;
  readonly signal?: AbortSignal;
}

/** Runs `fn` again after exponential backoff with jitter while the error is retryable. */
export async function withRetry<T>(fn: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 4;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= attempts || !isRetryable(err) || options.signal?.aborted) throw err;
      const wait = (options.baseMs ?? 200) * 2 ** (attempt - 1) * (0.5 + Math.random());
      await delay(Math.min(wait, 5000));
    }
  }
}
