import type { ObjectInfo } from "../storage/types.js";
import { compareKeys } from "../util/key-order.js";
import { formatDate, iBytes, rfc3339Local } from "../util/humanize.js";

const row = (name: string, value: string): string => `${name.padEnd(10)}: ${value} `;

/** Go's time.Time JSON of a UTC time: RFC 3339, the fraction without trailing zeros. */
const utc = (d: Date): string => d.toISOString().replace(/\.?0*Z$/, "Z");

/** Go's encoding/json writes map keys sorted. */
const sorted = (map: Readonly<Record<string, string>>): Record<string, string> => Object.fromEntries(Object.entries(map).sort(([a], [b]) => compareKeys(a, b)));

/** Content-Type first among the object's own headers and user metadata. */
export function metadataOf(info: ObjectInfo): Record<string, string> {
  return { ...(info.contentType ? { "Content-Type": info.contentType } : {}), ...info.metadata };
}

/** One object as `stat --json` prints it (cmd/stat.go statMessage, field order kept). */
export function statJson(info: ObjectInfo, name: string): Record<string, unknown> {
  const metadata = metadataOf(info);
  const obj: Record<string, unknown> = {
    status: "success",
    name,
    lastModified: rfc3339Local(info.lastModified),
    size: info.size,
    etag: info.etag,
    type: info.isDir ? "folder" : "file",
  };
  if (info.expires) obj["expires"] = utc(info.expires);
  if (info.expiration) obj["expiration"] = utc(info.expiration);
  if (info.expirationRuleId) obj["expirationRuleID"] = info.expirationRuleId;
  if (info.replicationStatus) obj["replicationStatus"] = info.replicationStatus;
  if (Object.keys(metadata).length) obj["metadata"] = sorted(metadata);
  if (info.versionId) obj["versionID"] = info.versionId;
  if (info.isDeleteMarker) obj["deleteMarker"] = true;
  // minio-go's RestoreInfo has no JSON names: Go writes its field names.
  if (info.restore) obj["restore"] = { OngoingRestore: info.restore.ongoing, ExpiryTime: info.restore.expiry ? utc(info.restore.expiry) : "0001-01-01T00:00:00Z" };
  if (info.checksum && Object.keys(info.checksum).length) obj["checksum"] = sorted(info.checksum);
  return obj;
}

/** The text form: `%-10s: value ` lines in upstream's order. */
export function statLines(info: ObjectInfo, name: string): string[] {
  const metadata = metadataOf(info);
  const lines = [row("Name", name), row("Date", formatDate(info.lastModified)), row("Size", iBytes(info.size))];
  if (!info.isDir) lines.push(row("ETag", info.etag));
  if (info.versionId) lines.push(row("VersionID", `${info.versionId}${info.isDeleteMarker ? " (delete-marker)" : ""}`));
  lines.push(row("Type", info.isDir ? "folder" : "file"));
  if (info.expires) lines.push(row("Expires", formatDate(info.expires)));
  if (info.expiration) lines.push(row("Expiration", `${formatDate(info.expiration)} (lifecycle-rule-id: ${info.expirationRuleId ?? ""})`));
  if (info.checksum && Object.keys(info.checksum).length) lines.push(row("Checksum", Object.entries(sorted(info.checksum)).map(([k, v]) => `${k}:${v}`).join(" ")).trimEnd());
  if (info.restore) {
    lines.push(row("Restore", "").trimEnd());
    if (info.restore.expiry) lines.push(`  ${"ExpiryTime".padEnd(10)}: ${formatDate(info.restore.expiry)}`);
    lines.push(`  ${"Ongoing".padEnd(10)}: ${String(info.restore.ongoing)}`);
  }
  if (info.encryption) lines.push(row("Encryption", info.encryption));
  if (Object.keys(metadata).length) {
    lines.push(row("Metadata", "").trimEnd());
    for (const [k, v] of Object.entries(metadata)) lines.push(`  ${k}: ${v} `);
  }
  if (info.replicationStatus) lines.push(row("Replication Status", info.replicationStatus));
  return lines;
}
