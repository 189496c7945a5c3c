import { s3Code, usageError } from "../../../core/errors.js";
import { s3Escape } from "../s3-escape.js";
import { s3Call } from "../s3-request.js";
import type { S3Target } from "../versions-target.js";

/** `"k1=v1&k2=v2"` (URL query form, as upstream parses it) as a tag map; a clear usage error otherwise. */
export function parseTags(text: string): Record<string, string> {
  if (text.trim() === "") throw usageError("tags must be given as \"key1=value1&key2=value2\".");
  const tags: Record<string, string> = {};
  for (const pair of text.split("&")) {
    const at = pair.indexOf("=");
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent((at < 0 ? pair : pair.slice(0, at)).replace(/\+/g, " "));
      value = at < 0 ? "" : decodeURIComponent(pair.slice(at + 1).replace(/\+/g, " "));
    } catch {
      throw usageError(`invalid tag \`${pair}\`: bad %-escape.`);
    }
    if (key === "" || at < 0) throw usageError(`invalid tag \`${pair}\`; tags must be given as "key1=value1&key2=value2".`);
    if (key in tags) throw usageError(`duplicate tag key \`${key}\`.`);
    if (key.length > 128 || value.length > 256) throw usageError(`tag \`${key}\` is too long (keys up to 128, values up to 256 characters).`);
    tags[key] = value;
  }
  return tags;
}

/** Tags of the bucket (key "") or object; a bucket without a tag set has no tags rather than an error. */
export async function readTags(t: S3Target, versionId?: string): Promise<Record<string, string>> {
  let list: { Key: string; Value: string }[];
  try {
    list = t.key === "" ? await t.client.getBucketTagging(t.bucket) : await t.client.getObjectTagging(t.bucket, t.key, versionId ? { versionId } : {});
  } catch (err) {
    if (s3Code(err) === "NoSuchTagSet") return {};
    throw err;
  }
  // The SDK's XML parser turns numeric-looking keys and values into numbers, and an empty value into "".
  return Object.fromEntries(list.map((tag) => [String(tag.Key), String(tag.Value ?? "")]));
}

export async function writeTags(t: S3Target, tags: Record<string, string>, versionId?: string): Promise<void> {
  if (t.key === "") await t.client.setBucketTagging(t.bucket, tags);
  else await t.client.setObjectTagging(t.bucket, t.key, tags, versionId ? { versionId } : undefined);
}

/**
 * DeleteBucketTagging / DeleteObjectTagging as our own request: the SDK's
 * removeTagging leaves the response unread, which keeps the keep-alive socket
 * (and so the process) alive until the server's idle timeout, a minute on RGW.
 */
export async function removeTags(t: S3Target, versionId?: string): Promise<void> {
  const query = versionId ? `tagging&versionId=${s3Escape(versionId)}` : "tagging";
  await s3Call(t.client, { method: "DELETE", bucket: t.bucket, ...(t.key === "" ? {} : { key: t.key }), query, expect: [200, 204] });
}

/** Upstream's `tag list` text: `Name` then one `key : value` row per tag, colons aligned. */
export function tagListText(url: string, versionId: string, tags: Record<string, string>): string {
  const keys = Object.keys(tags).sort();
  const width = Math.max(4, ...keys.map((k) => k.length)) + 2;
  const row = (k: string, v: string): string => `${k}${":".padStart(width - k.length)} ${v}`;
  const lines = [row("Name", versionId ? `${url} (${versionId})` : url), ...keys.map((k) => row(k, tags[k] ?? ""))];
  if (keys.length === 0) lines.push("No tags found");
  return lines.join("\n");
}
