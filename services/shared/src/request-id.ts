import { randomUUID } from "node:crypto";

/**
 * One id per external request: the gateway accepts the caller's (or makes
 * one), answers with it, and sends it as a Connect header on every call it
 * makes for that request; services log it as `reqId`. Passed explicitly, not
 * through AsyncLocalStorage: on Node 20 that turns on async hooks for the
 * whole process, which cost the gateway's cached path about a fifth of its
 * throughput.
 */
export const requestIdHeader = "x-request-id";

/** A caller-supplied id when it is safe to echo and log (short, plain characters), else a new one. */
export function acceptRequestId(value: string | null | undefined): string {
  return value !== null && value !== undefined && /^[A-Za-z0-9._:-]{1,128}$/.test(value) ? value : randomUUID();
}

/** Call options that carry `id` to the next service (empty when there is none). */
export function requestIdOptions(id: string | null | undefined): { headers?: Record<string, string> } {
  return id ? { headers: { [requestIdHeader]: id } } : {};
}
