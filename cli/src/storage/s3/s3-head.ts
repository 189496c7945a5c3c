import type { IncomingHttpHeaders } from "node:http";
import type { ObjectInfo, RestoreInfo } from "../types.js";

/** Headers an object keeps as its own, shown beside user metadata (minio-go's extractObjMetadata). */
const objectHeaders = new Set(["cache-control", "content-encoding", "content-disposition", "content-language", "x-amz-storage-class", "x-amz-website-redirect-location"]);

const checksums: Readonly<Record<string, string>> = {
  "x-amz-checksum-crc32": "CRC32",
  "x-amz-checksum-crc32c": "CRC32C",
  "x-amz-checksum-sha1": "SHA1",
  "x-amz-checksum-sha256": "SHA256",
  "x-amz-checksum-crc64nvme": "CRC64NVME",
};

/** `X-Amz-Meta-Key1` style canonical header name. */
function canonicalHeader(name: string): string {
  return name
    .split("-")
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1).toLowerCase() : w))
    .join("-");
}

/** The stat `Encryption` value from the (canonical) SSE response headers. */
function sseOf(headers: Readonly<Record<string, string>>): { encryption?: string } {
  if (headers["X-Amz-Server-Side-Encryption-Customer-Algorithm"]) return { encryption: "SSE-C" };
  const alg = headers["X-Amz-Server-Side-Encryption"];
  if (alg === "aws:kms") return { encryption: `SSE-KMS (${headers["X-Amz-Server-Side-Encryption-Aws-Kms-Key-Id"] ?? ""})` };
  return alg ? { encryption: "SSE-S3" } : {};
}

const one = (h: IncomingHttpHeaders, name: string): string => {
  const v = h[name];
  return Array.isArray(v) ? v.join(",") : (v ?? "");
};

/** A date of a header, or undefined when absent, unreadable or the zero time servers send for "none". */
function dateOf(text: string): Date | undefined {
  const d = new Date(text);
  return text === "" || Number.isNaN(d.getTime()) || d.getTime() <= 0 ? undefined : d;
}

/** `name="value"` pairs of x-amz-expiration and x-amz-restore. */
function pairs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([a-z-]+)="([^"]*)"/g)) out[m[1] ?? ""] = m[2] ?? "";
  return out;
}

function restoreOf(text: string): RestoreInfo | undefined {
  if (text === "") return undefined;
  const p = pairs(text);
  const expiry = dateOf(p["expiry-date"] ?? "");
  return { ongoing: p["ongoing-request"] === "true", ...(expiry ? { expiry } : {}) };
}

/**
 * What a HEAD (or GET) of an object says about it. An encrypted object's
 * ETag is not the MD5 of its plaintext: the caller blanks it so copies do
 * not check against it.
 */
export function objectInfoFromHeaders(key: string, h: IncomingHttpHeaders): ObjectInfo {
  const metadata: Record<string, string> = {};
  for (const name of Object.keys(h)) {
    const lower = name.toLowerCase();
    if (lower.startsWith("x-amz-meta-") || lower.startsWith("x-amz-server-side-encryption") || objectHeaders.has(lower)) metadata[canonicalHeader(lower)] = one(h, name);
  }
  const checksum: Record<string, string> = {};
  for (const [header, name] of Object.entries(checksums)) if (one(h, header) !== "") checksum[name] = one(h, header);
  const expiration = pairs(one(h, "x-amz-expiration"));
  const expires = dateOf(one(h, "expires"));
  const expiresAt = dateOf(expiration["expiry-date"] ?? "");
  const restore = restoreOf(one(h, "x-amz-restore"));
  const contentType = one(h, "content-type");
  const versionId = one(h, "x-amz-version-id");
  return {
    key,
    size: Number(one(h, "content-length") || 0),
    lastModified: new Date(one(h, "last-modified") || 0),
    etag: one(h, "etag").replace(/^"|"$/g, ""),
    isDir: false,
    storageClass: one(h, "x-amz-storage-class") || "STANDARD",
    metadata,
    ...(contentType ? { contentType } : {}),
    ...(versionId ? { versionId } : {}),
    ...sseOf(metadata),
    ...(expires ? { expires } : {}),
    ...(expiresAt ? { expiration: expiresAt, expirationRuleId: expiration["rule-id"] ?? "" } : {}),
    ...(one(h, "x-amz-replication-status") ? { replicationStatus: one(h, "x-amz-replication-status") } : {}),
    ...(one(h, "x-amz-delete-marker") === "true" ? { isDeleteMarker: true } : {}),
    ...(restore ? { restore } : {}),
    ...(Object.keys(checksum).length > 0 ? { checksum } : {}),
  };
}
