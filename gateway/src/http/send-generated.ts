import { createHash } from "node:crypto";
import type { RestRequest, RestResponse } from "../rest/rest-handler.js";
import { notModified } from "./conditional.js";
import { chooseEncoding, encoded } from "./negotiate.js";
import type { CachedResponse } from "./response-cache.js";

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

/**
 * Answers from a cached generated response: compression when accepted,
 * `304` on a matching validator, `Age` from the cache time.
 */
export async function answerGenerated(req: RestRequest, cached: CachedResponse, now: number, vary = "Accept-Encoding"): Promise<RestResponse> {
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
  return { status: cached.status, headers, body: variant.body };
}
