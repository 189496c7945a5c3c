/**
 * S3's percent-encoding of one value (RFC 3986: unreserved characters stay,
 * everything else is escaped, `!'()*` too, as SigV4 signs them escaped).
 */
export function s3Escape(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * A key, prefix or marker as a listing sent with `encoding-type=url` returns
 * it. AWS writes a space as `+` (form encoding) and a plus as `%2B`; RGW
 * writes `%20`: both read back the same.
 */
export function s3Unescape(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, " "));
}

/**
 * The value of `x-amz-copy-source`: `bucket/key` escaped exactly once (the
 * separators kept), the version as a query. The header travels as is, so
 * nothing may escape it again.
 */
export function copySource(bucket: string, key: string, versionId?: string): string {
  const path = `${bucket}/${key}`.split("/").map(s3Escape).join("/");
  return versionId ? `${path}?versionId=${s3Escape(versionId)}` : path;
}
