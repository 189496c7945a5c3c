// A small S3 endpoint that keeps objects in memory and records every request
// with its headers and body: the witness for what mc sends (x-amz-checksum-*,
// RestoreObject bodies) and a server that can send what Ceph RGW does not
// (checksums on GET, a wrong one included). Signatures are not checked.
import { createHash } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";

export interface Recorded {
  readonly method: string;
  /** Path with its query, as sent. */
  readonly url: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface StoredObject {
  readonly body: Buffer;
  readonly etag: string;
  readonly headers: Record<string, string>;
  readonly modified: Date;
}

export interface RecordingS3 {
  readonly endpoint: string;
  /** `MC_HOST_<alias>` value for this endpoint. */
  readonly host: string;
  readonly requests: Recorded[];
  /** `bucket/key` → object. */
  readonly objects: Map<string, StoredObject>;
  /** Extra headers for GET/HEAD answers of an object (e.g. a checksum). */
  answerHeaders: (path: string) => Record<string, string>;
  /** Answer a request before the built-in S3 does (undefined: fall through). */
  override: (r: Recorded) => { status: number; headers?: Record<string, string>; body?: string | Buffer } | undefined;
  close(): Promise<void>;
}

const md5 = (b: Buffer): string => createHash("md5").update(b).digest("hex");
const xml = (root: string, inner: string): string => `<?xml version="1.0" encoding="UTF-8"?><${root} xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${inner}</${root}>`;
const noSuchKey = xml("Error", "<Code>NoSuchKey</Code><Message>The specified key does not exist.</Message>");

export async function startRecordingS3(): Promise<RecordingS3> {
  const requests: Recorded[] = [];
  const objects = new Map<string, StoredObject>();
  const uploads = new Map<string, { path: string; parts: Map<number, Buffer>; headers: Record<string, string> }>();
  let nextUpload = 1;
  const self: RecordingS3 = {
    endpoint: "",
    host: "",
    requests,
    objects,
    answerHeaders: () => ({}),
    override: () => undefined,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const keep = (h: IncomingHttpHeaders): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(h)) if (/^(x-amz-meta-|content-type$)/.test(k) && typeof v === "string") out[k] = v;
    return out;
  };
  const list = (bucket: string, q: URLSearchParams): string => {
    const prefix = q.get("prefix") ?? "";
    const delimiter = q.get("delimiter") ?? "";
    const contents: string[] = [];
    const prefixes = new Set<string>();
    for (const [path, o] of [...objects].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (!path.startsWith(`${bucket}/${prefix}`)) continue;
      const key = path.slice(bucket.length + 1);
      const rest = key.slice(prefix.length);
      const cut = delimiter ? rest.indexOf(delimiter) : -1;
      if (cut >= 0) prefixes.add(prefix + rest.slice(0, cut + 1));
      else contents.push(`<Contents><Key>${encodeURIComponent(key)}</Key><LastModified>${o.modified.toISOString()}</LastModified><ETag>"${o.etag}"</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`);
    }
    const common = [...prefixes].map((p) => `<CommonPrefixes><Prefix>${encodeURIComponent(p)}</Prefix></CommonPrefixes>`).join("");
    return xml("ListBucketResult", `<Name>${bucket}</Name><Prefix>${prefix}</Prefix><KeyCount>${contents.length + prefixes.size}</KeyCount><MaxKeys>1000</MaxKeys><EncodingType>url</EncodingType><IsTruncated>false</IsTruncated>${contents.join("")}${common}`);
  };
  const answer = (r: Recorded): { status: number; headers?: Record<string, string>; body?: string | Buffer } => {
    const own = self.override(r);
    if (own) return own;
    const path = decodeURIComponent(r.path.slice(1));
    const [bucket = ""] = path.split("/");
    const isBucket = !path.includes("/") || path.endsWith(`${bucket}/`);
    const q = r.query;
    if (isBucket && r.method === "GET" && q.has("list-type")) return { status: 200, body: list(bucket, q) };
    if (isBucket) return { status: 200, body: "" };
    if (r.method === "POST" && q.has("uploads")) {
      const id = `upload-${nextUpload++}`;
      uploads.set(id, { path, parts: new Map(), headers: keep(r.headers) });
      return { status: 200, body: xml("InitiateMultipartUploadResult", `<Bucket>${bucket}</Bucket><Key>${path.slice(bucket.length + 1)}</Key><UploadId>${id}</UploadId>`) };
    }
    const upload = uploads.get(q.get("uploadId") ?? "");
    if (r.method === "PUT" && upload) {
      upload.parts.set(Number(q.get("partNumber")), r.body);
      return { status: 200, headers: { etag: `"${md5(r.body)}"` } };
    }
    if (r.method === "POST" && upload) {
      const parts = [...upload.parts].sort(([a], [b]) => a - b).map(([, b]) => b);
      const etag = `${md5(Buffer.concat(parts.map((p) => createHash("md5").update(p).digest())))}-${parts.length}`;
      objects.set(upload.path, { body: Buffer.concat(parts), etag, headers: upload.headers, modified: new Date() });
      return { status: 200, body: xml("CompleteMultipartUploadResult", `<Location>/${path}</Location><Bucket>${bucket}</Bucket><Key>${path.slice(bucket.length + 1)}</Key><ETag>"${etag}"</ETag>`) };
    }
    if (r.method === "DELETE" && upload) return { status: 204 };
    if (r.method === "PUT") {
      objects.set(path, { body: r.body, etag: md5(r.body), headers: keep(r.headers), modified: new Date() });
      return { status: 200, headers: { etag: `"${md5(r.body)}"` } };
    }
    const o = objects.get(path);
    if (r.method === "DELETE") {
      objects.delete(path);
      return { status: 204 };
    }
    if (!o) return { status: 404, headers: { "content-type": "application/xml" }, body: r.method === "HEAD" ? "" : noSuchKey };
    const headers = { etag: `"${o.etag}"`, "last-modified": o.modified.toUTCString(), "content-type": "application/octet-stream", ...o.headers, ...self.answerHeaders(path) };
    return { status: 200, headers, body: o.body };
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://recording");
      const r: Recorded = { method: req.method ?? "GET", url: req.url ?? "/", path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(r);
      const a = answer(r);
      const body = typeof a.body === "string" ? Buffer.from(a.body) : (a.body ?? Buffer.alloc(0));
      res.writeHead(a.status, { "content-length": String(body.length), ...a.headers });
      res.end(r.method === "HEAD" ? undefined : body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  Object.assign(self, { endpoint: `http://127.0.0.1:${port}`, host: `http://RECORDACCESS:RECORDSECRET@127.0.0.1:${port}` });
  return self;
}
