import { createHash } from "node:crypto";
import type { Client } from "minio";
import { XMLParser } from "fast-xml-parser";
import { s3Call, type S3Response } from "./s3-request.js";
import { escapeXml, list, text, type XmlElement, type XmlValue } from "./xml.js";

/** One object (or one version of it) to delete. */
export interface DeleteTarget {
  readonly key: string;
  readonly versionId?: string;
}

/** What one delete did, as DeleteObject's response headers would say it; or why it failed. */
export type DeleteOutcome = { readonly ok: true; readonly deleteMarker: boolean; readonly versionId: string } | { readonly ok: false; readonly error: Error };

/** S3's limit of keys per DeleteObjects request. */
export const maxBatch = 1000;

/**
 * Keys that travel through a DeleteObjects body unchanged. XML 1.0 cannot
 * carry most control characters even escaped and parsers turn CR into LF;
 * such keys are deleted one by one (DELETE carries the key in the URL,
 * where every byte survives). Spaces at either end do survive (RGW, AWS).
 */
export function batchable(key: string): boolean {
  return key !== "" && !/[\u0000-\u001f\u007f\ufffe\uffff]/.test(key);
}

const sameTarget = (key: string, versionId: string | undefined): string => `${key}\u0000${versionId ?? ""}`;

// Values kept exactly (a key may end in spaces); repeated elements are lists.
const parser = new XMLParser({ ignoreAttributes: true, ignoreDeclaration: true, removeNSPrefix: true, parseTagValue: false, trimValues: false, isArray: (name) => name === "Deleted" || name === "Error" });

function s3Error(el: XmlValue, bucket: string, res: S3Response): Error {
  const code = text(el, "Code");
  return Object.assign(new Error(text(el, "Message")), {
    code,
    bucketname: bucket,
    key: text(el, "Key"),
    requestid: String(res.headers["x-amz-request-id"] ?? ""),
    hostid: String(res.headers["x-amz-id-2"] ?? ""),
  });
}

/**
 * One DeleteObjects request (up to 1,000 batchable targets) and each
 * target's outcome, in the order given. A target the answer does not name
 * fails rather than being deleted again (a second plain delete would leave
 * a second delete marker in a versioned bucket).
 */
export async function deleteBatch(client: Client, bucket: string, targets: readonly DeleteTarget[], options: { readonly bypassGovernance?: boolean } = {}): Promise<DeleteOutcome[]> {
  const objects = targets.map((t) => `<Object><Key>${escapeXml(t.key)}</Key>${t.versionId ? `<VersionId>${escapeXml(t.versionId)}</VersionId>` : ""}</Object>`);
  // Bytes, not a string: the signature's payload hash and the length must both count UTF-8 bytes.
  const body = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Quiet>false</Quiet>${objects.join("")}</Delete>`, "utf8");
  const headers: Record<string, string> = { "Content-Type": "application/xml", "Content-MD5": createHash("md5").update(body).digest("base64") };
  if (options.bypassGovernance) headers["x-amz-bypass-governance-retention"] = "true";
  const res = await s3Call(client, { method: "POST", bucket, query: "delete", body, headers });
  const parsed: unknown = parser.parse(res.body.toString("utf8"));
  const root = (typeof parsed === "object" && parsed !== null ? (parsed as XmlElement)["DeleteResult"] : undefined) ?? {};
  const exact = new Map<string, DeleteOutcome>();
  const byKey = new Map<string, DeleteOutcome>();
  const answer = (el: XmlValue, outcome: DeleteOutcome): void => {
    exact.set(sameTarget(text(el, "Key"), text(el, "VersionId") || undefined), outcome);
    byKey.set(text(el, "Key"), outcome);
  };
  for (const el of list(root, "Deleted")) {
    // A deleted version that was a delete marker, or a new delete marker: the marker's version id, as DELETE's x-amz-version-id.
    answer(el, { ok: true, deleteMarker: text(el, "DeleteMarker") === "true", versionId: text(el, "DeleteMarkerVersionId") || text(el, "VersionId") });
  }
  for (const el of list(root, "Error")) answer(el, { ok: false, error: s3Error(el, bucket, res) });
  // A delete that made a marker may or may not echo a VersionId: the key alone then names it.
  const missing = (key: string): DeleteOutcome => ({ ok: false, error: Object.assign(new Error("The server's DeleteObjects answer does not mention this object."), { key }) });
  return targets.map((t) => exact.get(sameTarget(t.key, t.versionId)) ?? byKey.get(t.key) ?? missing(t.key));
}
