import type { Client } from "minio";
import type { ChecksumAlgorithm } from "../types.js";
import { checksumHeader } from "./checksum.js";
import { s3Call } from "./s3-request.js";
import { escapeXml, parseXml, rootName, text, child } from "./xml.js";

export interface CompletedPart {
  readonly part: number;
  readonly etag: string;
  /** The part's x-amz-checksum-* value, with --checksum. */
  readonly checksum?: string;
}

export interface CompleteOptions {
  /** --checksum: each part's value is listed; `whole` is the object's (CRC64NVME). */
  readonly algorithm?: ChecksumAlgorithm;
  readonly whole?: string;
  /** put --if-not-exists: `*`. */
  readonly ifNoneMatch?: string;
}

/**
 * CompleteMultipartUpload with each part's checksum and a condition (the
 * SDK's call has no place for them). A CRC-64/NVME upload is a full-object
 * one (S3 takes no composite CRC-64): the whole object's value travels as a header.
 */
export async function completeWithChecksums(client: Client, bucket: string, key: string, uploadId: string, parts: readonly CompletedPart[], options: CompleteOptions): Promise<void> {
  const { algorithm } = options;
  const element = `Checksum${algorithm ?? ""}`;
  const sum = (p: CompletedPart): string => (algorithm ? `<${element}>${escapeXml(p.checksum ?? "")}</${element}>` : "");
  const body =
    `<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
    parts.map((p) => `<Part>${sum(p)}<ETag>"${escapeXml(p.etag.replace(/"/g, ""))}"</ETag><PartNumber>${p.part}</PartNumber></Part>`).join("") +
    `</CompleteMultipartUpload>`;
  const headers: Record<string, string> = { "Content-Type": "application/xml" };
  if (algorithm === "CRC64NVME") headers[checksumHeader(algorithm)] = options.whole ?? "";
  if (options.ifNoneMatch) headers["If-None-Match"] = options.ifNoneMatch;
  const res = await s3Call(client, { method: "POST", bucket, key, query: `uploadId=${encodeURIComponent(uploadId)}`, body, headers });
  // S3 may answer 200 and put the error in the body.
  const doc = parseXml(res.body.toString("utf8"));
  if (rootName(doc) === "Error") {
    const err = child(doc, "Error");
    throw Object.assign(new Error(text(err, "Message") || "CompleteMultipartUpload failed"), { code: text(err, "Code") || "InternalError", key, bucketname: bucket });
  }
}
