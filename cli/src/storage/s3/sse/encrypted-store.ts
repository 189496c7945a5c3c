import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import type { Client } from "minio";
import { objectInfoFromHeaders } from "../s3-head.js";
import { s3Escape } from "../s3-escape.js";
import { isNotFound } from "../s3-store.js";
import type { Entry, ObjectInfo, ReadOptions, Store } from "../../types.js";
import { s3Call } from "../s3-request.js";
import { readObject } from "../s3-read.js";
import { sseReadHeaders, sseWriteHeaders, type SseKeys, type SseSpec } from "./sse-keys.js";

// An encrypted object's ETag is not the MD5 of its plaintext: leave it out so copies do not check against it.
const infoFromHeaders = (key: string, h: IncomingHttpHeaders): ObjectInfo => ({ ...objectInfoFromHeaders(key, h), etag: "" });

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
        const query = versionId ? `versionId=${s3Escape(versionId)}` : "";
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
      return readObject(client, bucket, key, options, sseReadHeaders(spec));
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
