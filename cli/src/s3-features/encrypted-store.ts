import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import type { Client } from "minio";
import { canonicalHeader, isNotFound } from "../storage/s3-store.js";
import type { Entry, ObjectInfo, ReadOptions, Store } from "../storage/types.js";
import { s3Call, s3Stream } from "./s3-request.js";
import { sseReadHeaders, sseWriteHeaders, type SseKeys, type SseSpec } from "./sse-keys.js";

const header = (h: IncomingHttpHeaders, name: string): string => {
  const v = h[name];
  return Array.isArray(v) ? (v[0] ?? "") : (v ?? "");
};

function infoFromHeaders(key: string, h: IncomingHttpHeaders): ObjectInfo {
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (k.startsWith("x-amz-meta-")) metadata[canonicalHeader(k)] = Array.isArray(v) ? v.join(",") : (v ?? "");
  const contentType = header(h, "content-type");
  const versionId = header(h, "x-amz-version-id");
  return {
    key,
    size: Number(header(h, "content-length") || 0),
    lastModified: new Date(header(h, "last-modified") || 0),
    // An encrypted object's ETag is not the MD5 of its plaintext: leave it out so copies do not check against it.
    etag: "",
    isDir: false,
    storageClass: "STANDARD",
    metadata,
    ...(contentType ? { contentType } : {}),
    ...(versionId ? { versionId } : {}),
    ...(header(h, "x-amz-server-side-encryption-customer-algorithm") ? { encryption: "SSE-C" } : {}),
  };
}

/**
 * A bucket store whose objects under the given prefixes are written and read
 * with SSE-C or SSE-KMS headers; other keys go straight to the plain store.
 * No server-side copies: servers refuse CopyObject with an encrypted source.
 */
export function createEncryptedStore(inner: Store, client: Client, bucket: string, keys: SseKeys): Store {
  const specOf = (key: string): SseSpec | undefined => keys.forUrl(inner.url(key));
  const store: Store = {
    kind: "s3",
    url: (key) => inner.url(key),
    async stat(key, versionId) {
      const spec = specOf(key);
      if (!spec || spec.kind !== "sse-c") {
        const info = await inner.stat(key, versionId);
        return info && spec ? { ...info, etag: "" } : info;
      }
      if (key === "" || key.endsWith("/")) return undefined;
      try {
        const query = versionId ? `versionId=${encodeURIComponent(versionId)}` : "";
        const res = await s3Call(client, { method: "HEAD", bucket, key, query, headers: sseReadHeaders(spec) });
        return infoFromHeaders(key, res.headers);
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    isDir: (key) => inner.isDir(key),
    async *list(prefix, options): AsyncGenerator<Entry> {
      for await (const e of inner.list(prefix, options)) yield specOf(e.key) && !e.isDir ? { ...e, etag: "" } : e;
    },
    async read(key, options: ReadOptions = {}): Promise<Readable> {
      const spec = specOf(key);
      if (!spec || spec.kind !== "sse-c") return inner.read(key, options);
      const headers: Record<string, string> = { ...sseReadHeaders(spec) };
      if (options.offset !== undefined || options.length !== undefined) {
        const start = options.offset ?? 0;
        headers["Range"] = `bytes=${start}-${options.length === undefined ? "" : start + options.length - 1}`;
      }
      const query = options.versionId ? `versionId=${encodeURIComponent(options.versionId)}` : "";
      return s3Stream(client, { method: "GET", bucket, key, query, headers, expect: [200, 206] });
    },
    write(key, source, size, options = {}) {
      const spec = specOf(key);
      if (!spec) return inner.write(key, source, size, options);
      return inner.write(key, source, size, { ...options, encryption: { headers: sseWriteHeaders(spec), partHeaders: sseReadHeaders(spec) } });
    },
    remove: (key, versionId) => inner.remove(key, versionId),
  };
  return store;
}
