import type { Readable } from "node:stream";
import type { Client } from "minio";
import type { ReadOptions } from "../types.js";
import type { IncomingMessage } from "node:http";
import { mcError } from "../../core/errors.js";
import { fullObjectChecksum, verifyingStream } from "./checksum.js";
import { s3Escape } from "./s3-escape.js";
import { s3Stream } from "./s3-request.js";

/**
 * GET of an object, a range or one part. The server is asked for its
 * checksum (x-amz-checksum-mode); when a whole-object read comes with a
 * full-object checksum, the bytes are checked against it and the stream
 * fails at its end on a mismatch, so no file is renamed into place.
 */
export async function readObject(client: Client, bucket: string, key: string, options: ReadOptions = {}, extraHeaders: Readonly<Record<string, string>> = {}): Promise<Readable> {
  const headers: Record<string, string> = { ...extraHeaders, "x-amz-checksum-mode": "ENABLED" };
  if (options.ifMatch) headers["If-Match"] = quotedEtag(options.ifMatch);
  const ranged = options.offset !== undefined || options.length !== undefined;
  if (ranged) {
    const start = options.offset ?? 0;
    headers["Range"] = `bytes=${start}-${options.length === undefined ? "" : start + options.length - 1}`;
  }
  const query = [options.versionId ? `versionId=${s3Escape(options.versionId)}` : "", options.partNumber !== undefined ? `partNumber=${options.partNumber}` : ""].filter((q) => q !== "").join("&");
  const res = await s3Stream(client, { method: "GET", bucket, key, query, headers, expect: [200, 206] });
  if (options.partNumber !== undefined) checkPartAnswer(res, key, options.partNumber);
  const expected = ranged || options.partNumber !== undefined ? undefined : fullObjectChecksum(res.headers);
  if (!expected) return res;
  const verify = verifyingStream(expected, key);
  res.on("error", (err) => verify.destroy(err));
  return res.pipe(verify);
}

/** An ETag as If-Match wants it: in quotes (ObjectInfo keeps it without). */
export const quotedEtag = (etag: string): string => (etag.startsWith('"') ? etag : `"${etag}"`);

/**
 * A server that does not know partNumber (Ceph RGW) answers with the whole
 * object: 200, no Content-Range, no part count. That is the part only for
 * part 1 of an object uploaded in one piece; otherwise it is refused.
 */
function checkPartAnswer(res: IncomingMessage, key: string, part: number): void {
  const h = res.headers;
  if (res.statusCode === 206 || h["content-range"] !== undefined || h["x-amz-mp-parts-count"] !== undefined) return;
  if (part === 1 && !/-\d+"?$/.test(String(h.etag ?? ""))) return;
  res.destroy();
  throw mcError(`Unable to read part ${part} of \`${key}\`: the server ignored the part number and sent the whole object.`, undefined, "failed_precondition");
}
