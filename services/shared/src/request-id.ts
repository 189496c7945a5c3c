import { randomBytes } from "node:crypto";

/**
 * One id per external request: the gateway accepts the caller's (or makes
 * one), answers with it, and sends it as a Connect header on every call it
 * makes for that request; services log it as `reqId`. Passed explicitly, not
 * through AsyncLocalStorage: on Node 20 that turns on async hooks for the
 * whole process, which cost the gateway's cached path about a fifth of its
 * throughput.
 */
export const requestIdHeader = "x-request-id";

const hex3 = Array.from({ length: 4096 }, (_, i) => i.toString(16).padStart(3, "0"));

/**
 * New ids look like UUIDs (36 characters, 8-4-4-4-12 hex) but are a random
 * prefix drawn once per process and a 48-bit counter: unique within the
 * process, and across processes as long as 80 random bits do not repeat. An
 * id only correlates log lines; nothing needs it unguessable. A random UUID
 * per request cost the gateway's cached answers 5 % of their rate.
 */
export function createRequestIds(prefix: string, start: number): () => string {
  // The counter is kept as two 24-bit halves, each a small integer, and
  // written with a table of 3-digit hex strings: as one 48-bit number it is a
  // double, whose modulo (fmod) and toString(16) cost the gateway's cached
  // path about 1 % of its CPU.
  let high = Math.floor(start / 2 ** 24) % 2 ** 24;
  let low = start % 2 ** 24;
  const head = (): string => prefix + hex3[high >>> 12] + hex3[high & 0xfff];
  // Joined, not added: `a + b + c` of 13 characters or more is a rope, which
  // Node's header check (a regex) copies into a flat string first: 0.6 µs
  // of each cached answer in the gateway's profile.
  const parts = [head(), "", ""];
  return () => {
    low = (low + 1) & 0xffffff;
    if (low === 0) {
      high = (high + 1) & 0xffffff;
      parts[0] = head();
    }
    parts[1] = hex3[low >>> 12] as string;
    parts[2] = hex3[low & 0xfff] as string;
    return parts.join("");
  };
}

const random = randomBytes(10).toString("hex");
/**
 * A new request id (see createRequestIds). The counter starts at a random
 * value, so two processes that drew one prefix still differ by their offsets.
 */
export const newRequestId = createRequestIds(`${random.slice(0, 8)}-${random.slice(8, 12)}-${random.slice(12, 16)}-${random.slice(16, 20)}-`, randomBytes(4).readUInt32BE(0));

/** A caller-supplied id when it is safe to echo and log (short, plain characters), else a new one. */
export function acceptRequestId(value: string | null | undefined): string {
  return value !== null && value !== undefined && /^[A-Za-z0-9._:-]{1,128}$/.test(value) ? value : newRequestId();
}

/** Call options that carry `id` to the next service (empty when there is none). */
export function requestIdOptions(id: string | null | undefined): { headers?: Record<string, string> } {
  return id ? { headers: { [requestIdHeader]: id } } : {};
}
