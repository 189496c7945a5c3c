import type { Client } from "minio";
import type { ReadOptions } from "../types.js";
import type { RangeDial } from "./range-connection.js";
import { rangeTargetOf } from "./s3-client.js";
import { directRequestOptions, validBucket } from "./s3-direct.js";
import { s3Escape } from "./s3-escape.js";
import { quotedEtag } from "./s3-read.js";

/** Header values a request head may carry as they are (the SDK's path refuses or encodes the rest). */
const plainValue = /^[\t\x20-\x7e]*$/;

/**
 * The ranged GETs of one object as range-connection.ts sends them: signed as
 * the SDK signs them (s3-direct.ts), with If-Match so no range comes from a
 * newer object. Undefined where only the SDK may go: HTTPS, virtual-host
 * style, a bucket name the SDK would refuse, a header it would not send as is.
 */
export function rangeDialFor(client: Client, bucket: string, key: string, options: Pick<ReadOptions, "versionId" | "ifMatch">): RangeDial | undefined {
  const reach = rangeTargetOf(client);
  if (!reach || !validBucket(bucket) || key === "") return undefined;
  const { target } = reach;
  const query = options.versionId ? `versionId=${s3Escape(options.versionId)}` : "";
  const ifMatch = options.ifMatch ? { "if-match": quotedEtag(options.ifMatch) } : {};
  const request = (offset: number, length: number): { path: string; headers: Record<string, string> } =>
    directRequestOptions(target, { method: "GET", bucketName: bucket, objectName: key, query, headers: { range: `bytes=${offset}-${offset + length - 1}`, ...ifMatch } }, target.region, new Date());
  // Only the range and the date change from one request to the next: one look at the values covers all.
  if (!Object.values(request(0, 1).headers).every((value) => plainValue.test(value))) return undefined;
  return {
    host: target.host,
    port: target.port,
    ...(reach.lookup ? { lookup: reach.lookup } : {}),
    idleMs: reach.idleMs,
    idleError: reach.idleError,
    requestHead(offset, length) {
      const { path, headers } = request(offset, length);
      return `GET ${path} HTTP/1.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n`;
    },
  };
}
