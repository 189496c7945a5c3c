import { createHash } from "node:crypto";
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import { requestIdHeader } from "@mc/shared/node";
import type { RestRequest, RestResponse } from "@mc/shared/rest";
import { notModified } from "./conditional.js";
import { hotKeyOf, type HotRequest } from "./hot-request.js";
import { chooseEncoding, encoded } from "./negotiate.js";
import type { CachedResponse, HotAnswer, ResponseCache } from "./response-cache.js";

export const generatedCacheControl = "public, max-age=300";

/** A generated body with its validators, ready for the cache. */
export function generated(body: string | Buffer, contentType: string, lastModified: Date | undefined, extra: Record<string, string> = {}): Omit<CachedResponse, "storedAt"> {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  return {
    status: 200,
    body: bytes,
    headers: { "content-type": contentType, ...extra },
    etag: `"${createHash("sha256").update(bytes).digest("hex")}"`,
    lastModified,
  };
}

/** The hot-path key of a request (hotKeyOf), from its parsed headers. */
export function hotKey(req: IncomingMessage): string {
  return hotKeyOf(req.url, req.headers["accept-encoding"], req.headers.accept);
}

/**
 * Answers a request read by readHotRequest from the hot path and returns the
 * answer sent, or undefined when the cache holds none for it.
 */
export function answerHot(req: IncomingMessage, res: ServerResponse, cache: ResponseCache, now: number, hot: HotRequest, requestId: string): HotAnswer | undefined {
  const hit = cache.hot(hot.key, now);
  if (!hit) return undefined;
  // One header object for writeHead: a setHeader before it would force Node's slower merge.
  const headers = hit.headers;
  headers["age"] = String(Math.max(0, Math.floor((now - hit.storedAt) / 1000)));
  // Spelled out, so the store names its property (perf showed keyed stores here); `satisfies` keeps it requestIdHeader.
  headers["x-request-id" satisfies typeof requestIdHeader] = requestId;
  res.writeHead(hit.status, headers);
  res.end(req.method === "HEAD" ? undefined : hit.body);
  return hit;
}

/** HotAnswer.head: the status line and the header lines before `age`, in the order writeHead sends them. */
function rawHeadOf(status: number, headers: Readonly<Record<string, string>>, length: number): string {
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "unknown"}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  return `${head}content-length: ${length}\r\n`;
}

/**
 * Answers from a cached generated response: compression when accepted,
 * `304` on a matching validator, `Age` from the cache time. A full answer is
 * remembered for the hot path, unless the cache moved on (an invalidation,
 * a newer catalog) while it was being compressed.
 */
export async function answerGenerated(req: RestRequest, cache: ResponseCache, cached: CachedResponse, now: number, vary = "Accept-Encoding"): Promise<RestResponse> {
  const encoding = chooseEncoding(req.headers["accept-encoding"]);
  const variant = await encoded(cached, encoding);
  const headers: Record<string, string> = {
    ...cached.headers,
    "cache-control": generatedCacheControl,
    etag: variant.etag,
    vary,
    age: String(Math.max(0, Math.floor((now - cached.storedAt) / 1000))),
  };
  if (cached.lastModified) headers["last-modified"] = cached.lastModified.toUTCString();
  if (notModified(req.headers, variant.etag, cached.lastModified)) {
    delete headers["content-type"];
    return { status: 304, headers };
  }
  if (variant.body !== cached.body) headers["content-encoding"] = encoding;
  // The same key order for every answer, age and request id last, so the hot path keeps one shape.
  const { age: _age, ...stable } = headers;
  const hotHeaders = { ...stable, "content-length": String(variant.body.byteLength), age: "0", [requestIdHeader]: "" };
  const hot = { status: cached.status, headers: hotHeaders, body: variant.body, storedAt: cached.storedAt, head: rawHeadOf(cached.status, stable, variant.body.byteLength) };
  cache.remember(hotKey(req.raw), hot, cached);
  return { status: cached.status, headers, body: variant.body };
}
