import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { Interceptor } from "@connectrpc/connect";

/**
 * One id per external request, carried in this header over HTTP and in the
 * Connect headers of every hop over NATS, so the log lines of the gateway and
 * of each service it calls can be joined on `reqId`.
 */
export const requestIdHeader = "x-request-id";

const current = new AsyncLocalStorage<string>();

/** A caller-supplied id when it is safe to echo and log (short, plain characters), else a new one. */
export function acceptRequestId(value: string | null | undefined): string {
  return value !== null && value !== undefined && /^[A-Za-z0-9._:-]{1,128}$/.test(value) ? value : randomUUID();
}

/** Runs `work` with `id` as the current request id (for everything it awaits). */
export function withRequestId<T>(id: string, work: () => T): T {
  return current.run(id, work);
}

export function currentRequestId(): string | undefined {
  return current.getStore();
}

/** Client side: sends the current request id along with each call that has none yet. */
export const requestIdInterceptor: Interceptor = (next) => (req) => {
  const id = currentRequestId();
  if (id !== undefined && !req.header.has(requestIdHeader)) req.header.set(requestIdHeader, id);
  return next(req);
};
