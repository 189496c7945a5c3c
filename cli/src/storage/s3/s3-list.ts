import type { Client } from "minio";
import { s3Call } from "./s3-request.js";
import { child, list, parseXml, text, type XmlValue } from "./xml.js";
import { compareKeys } from "../../util/key-order.js";
import { s3Escape, s3Unescape } from "./s3-escape.js";
import type { Entry, ListOptions } from "../types.js";

/** One page of a listing with the markers of the next one ("" when it was the last). */
interface Page {
  readonly entries: Entry[];
  readonly token: string;
  readonly keyMarker: string;
  readonly versionIdMarker: string;
}

const query = (params: Record<string, string>): string =>
  Object.entries(params)
    .filter(([, v]) => v !== "")
    .map(([k, v]) => (v === "\0" ? k : `${k}=${s3Escape(v)}`))
    .join("&");

const folder = (el: XmlValue): Entry => ({ key: s3Unescape(text(el, "Prefix")), size: 0, lastModified: new Date(), etag: "", isDir: true });

function object(el: XmlValue, versions: boolean, isDeleteMarker: boolean): Entry {
  const versionId = text(el, "VersionId");
  const key = s3Unescape(text(el, "Key"));
  return {
    key,
    size: Number(text(el, "Size") || 0),
    lastModified: new Date(text(el, "LastModified") || 0),
    etag: text(el, "ETag").replace(/^"|"$/g, ""),
    // A folder marker (an empty object named `dir/`) is a folder, as upstream shows it.
    isDir: key.endsWith("/"),
    // A delete marker has no storage class (upstream leaves the field out).
    ...(isDeleteMarker ? {} : { storageClass: text(el, "StorageClass") || "STANDARD" }),
    ...(versions ? { versionId: versionId || "null", isLatest: text(el, "IsLatest") === "true", isDeleteMarker } : {}),
  };
}

/**
 * ListObjectsV2 or ListObjectVersions with `encoding-type=url`, so that any
 * key survives the XML (leading spaces, control characters); every key and
 * marker is decoded here once and escaped once when sent back.
 */
async function page(client: Client, bucket: string, prefix: string, options: ListOptions, from: Page | undefined): Promise<Page> {
  const versions = options.versions === true;
  const common = { prefix, delimiter: options.recursive ? "" : "/", "encoding-type": "url", "max-keys": "1000" };
  const params = versions
    ? { versions: "\0", ...common, "key-marker": from?.keyMarker ?? "", "version-id-marker": from?.versionIdMarker ?? "" }
    : { "list-type": "2", ...common, "continuation-token": from?.token ?? "" };
  const res = await s3Call(client, { method: "GET", bucket, query: query(params) });
  const doc = parseXml(res.body.toString("utf8"), ["Contents", "CommonPrefixes", "Version", "DeleteMarker"]);
  const root = child(doc, versions ? "ListVersionsResult" : "ListBucketResult");
  const entries = [
    ...list(root, versions ? "Version" : "Contents").map((el) => object(el, versions, false)),
    ...list(root, "DeleteMarker").map((el) => object(el, true, true)),
    ...list(root, "CommonPrefixes").map(folder),
  ];
  // Versions and delete markers arrive in separate groups: newest first per key.
  entries.sort((a, b) => compareKeys(a.key, b.key) || b.lastModified.getTime() - a.lastModified.getTime());
  const more = text(root, "IsTruncated") === "true";
  // RGW leaves NextKeyMarker unescaped where AWS escapes it: continue after the page's last entry instead.
  const last = entries.at(-1);
  return {
    entries,
    token: more && !versions ? text(root, "NextContinuationToken") : "",
    keyMarker: more && versions ? (last?.key ?? "") : "",
    versionIdMarker: more && versions && last && !last.isDir ? (last.versionId ?? "") : "",
  };
}

/** Every entry below `prefix`, page after page; folders end in `/` when not recursive. */
export async function* listS3(client: Client, bucket: string, prefix: string, options: ListOptions): AsyncGenerator<Entry> {
  let from: Page | undefined;
  for (;;) {
    from = await page(client, bucket, prefix, options, from);
    yield* from.entries;
    if (from.token === "" && from.keyMarker === "") return;
  }
}

/** True when at least one key starts with `prefix`. */
export async function anyBelow(client: Client, bucket: string, prefix: string): Promise<boolean> {
  const res = await s3Call(client, { method: "GET", bucket, query: query({ "list-type": "2", prefix, delimiter: "/", "encoding-type": "url", "max-keys": "1" }) });
  const root = child(parseXml(res.body.toString("utf8"), ["Contents", "CommonPrefixes"]), "ListBucketResult");
  return list(root, "Contents").length + list(root, "CommonPrefixes").length > 0;
}
