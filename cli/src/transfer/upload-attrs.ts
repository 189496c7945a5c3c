import { usageError } from "../core/errors.js";
import { parseMode, parseValidity, retainUntil } from "../storage/s3/versions/versions-retention.js";
import { parseTags } from "../storage/s3/versions/versions-tags.js";

/** What `--attr`, `--tags` and `--storage-class` add to an upload, as request headers. */
export interface UploadAttrFlags {
  readonly attr?: string | undefined;
  readonly tags?: string | undefined;
  readonly storageClass?: string | undefined;
  /** Object lock on the new object: mode and duration together, legal hold on|off. */
  readonly retentionMode?: string | undefined;
  readonly retentionDuration?: string | undefined;
  readonly legalHold?: string | undefined;
}

// Headers S3 stores as the object's own rather than as user metadata.
const standardHeaders = new Map(["Cache-Control", "Content-Disposition", "Content-Encoding", "Content-Language", "Content-Type", "Expires"].map((h) => [h.toLowerCase(), h]));
const token = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/**
 * Request headers for an upload: `--attr "k=v;k2=v2"` (standard headers as
 * themselves, anything else as `X-Amz-Meta-k`), `--tags "a=b&c=d"` (S3's limits:
 * 10 tags, keys up to 128 and values up to 256 characters) and `--storage-class`.
 * Undefined when no flag is given; a malformed value is a usage error.
 */
export function uploadHeaders(flags: UploadAttrFlags): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  if (flags.attr !== undefined) {
    for (const pair of flags.attr.split(";")) {
      if (pair.trim() === "") continue;
      const eq = pair.indexOf("=");
      const key = eq < 0 ? "" : pair.slice(0, eq).trim();
      if (!token.test(key)) throw usageError(`invalid --attr \`${pair}\`; use "key=value;key2=value2".`);
      const value = pair.slice(eq + 1);
      if (/[\r\n]/.test(value)) throw usageError(`invalid --attr value for \`${key}\`: no line breaks.`);
      headers[standardHeaders.get(key.toLowerCase()) ?? `X-Amz-Meta-${key}`] = value;
    }
  }
  if (flags.tags !== undefined) {
    const tags = parseTags(flags.tags);
    if (Object.keys(tags).length > 10) throw usageError(`invalid --tags \`${flags.tags}\`: at most 10 tags.`);
    headers["X-Amz-Tagging"] = new URLSearchParams(tags).toString();
  }
  if (flags.storageClass !== undefined) {
    if (!/^[A-Za-z_]+$/.test(flags.storageClass)) throw usageError(`invalid --storage-class \`${flags.storageClass}\`.`);
    headers["X-Amz-Storage-Class"] = flags.storageClass.toUpperCase();
  }
  Object.assign(headers, lockHeaders(flags));
  return Object.keys(headers).length > 0 ? headers : undefined;
}

function lockHeaders(flags: UploadAttrFlags): Record<string, string> {
  const headers: Record<string, string> = {};
  if ((flags.retentionMode === undefined) !== (flags.retentionDuration === undefined)) {
    throw usageError("--retention-mode and --retention-duration go together.");
  }
  if (flags.retentionMode !== undefined) {
    headers["X-Amz-Object-Lock-Mode"] = parseMode(flags.retentionMode);
    headers["X-Amz-Object-Lock-Retain-Until-Date"] = retainUntil(parseValidity(flags.retentionDuration)).toISOString();
  }
  if (flags.legalHold !== undefined) {
    const hold = flags.legalHold.toUpperCase();
    if (hold !== "ON" && hold !== "OFF") throw usageError(`invalid --legal-hold \`${flags.legalHold}\`; use on or off.`);
    headers["X-Amz-Object-Lock-Legal-Hold"] = hold;
  }
  return headers;
}
