import type { Readable } from "node:stream";
import type { Client } from "minio";
import { s3Code } from "../errors.js";
import { uploadToS3, type UploadSettings } from "../transfer/s3-upload.js";
import type { Entry, ListOptions, ObjectInfo, ReadOptions, Store, WriteOptions } from "./types.js";

/** Headers an object keeps as its own (the SDK hands them over beside user metadata). */
const objectHeaders = new Set(["cache-control", "content-encoding", "content-disposition", "content-language", "x-amz-storage-class", "x-amz-website-redirect-location"]);

interface ListedObject {
  name?: string;
  prefix?: string;
  size?: number;
  etag?: string;
  lastModified?: Date;
  versionId?: string | null;
  isLatest?: boolean | string;
  isDeleteMarker?: boolean;
}

/** `X-Amz-Meta-Key1` style canonical header name. */
export function canonicalHeader(name: string): string {
  return name
    .split("-")
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1).toLowerCase() : w))
    .join("-");
}

/** The stat `Encryption` value from the (canonical) SSE response headers. */
export function sseOf(headers: Readonly<Record<string, string>>): { encryption?: string } {
  if (headers["X-Amz-Server-Side-Encryption-Customer-Algorithm"]) return { encryption: "SSE-C" };
  const alg = headers["X-Amz-Server-Side-Encryption"];
  if (alg === "aws:kms") return { encryption: `SSE-KMS (${headers["X-Amz-Server-Side-Encryption-Aws-Kms-Key-Id"] ?? ""})` };
  return alg ? { encryption: "SSE-S3" } : {};
}

export function isNotFound(err: unknown): boolean {
  return ["NoSuchKey", "NotFound", "NoSuchVersion"].includes(s3Code(err));
}

/** Which client and bucket an S3 store uses, for server-side copies between stores. */
const origins = new WeakMap<Store, { client: Client; bucket: string }>();
const maxSingleCopy = 5 * 1024 ** 3;

/** One bucket of one alias; keys are object keys. */
export function createS3Store(client: Client, aliasName: string, bucket: string, upload: UploadSettings): Store {
  const base = `${aliasName}/${bucket}/`;
  async function* list(prefix: string, options: ListOptions): AsyncGenerator<Entry> {
    let marker = "";
    let keyMarker = "";
    let versionIdMarker = "";
    for (;;) {
      const page = await client.listObjectsQuery(bucket, prefix, marker, {
        Delimiter: options.recursive ? "" : "/",
        MaxKeys: 1000,
        IncludeVersion: options.versions === true,
        keyMarker,
        versionIdMarker,
      });
      const objects = (page.objects ?? []) as ListedObject[];
      const entries: Entry[] = objects.map((o) =>
        o.prefix !== undefined
          ? { key: o.prefix, size: 0, lastModified: new Date(), etag: "", isDir: true }
          : {
              key: o.name ?? "",
              size: Number(o.size ?? 0),
              lastModified: o.lastModified ?? new Date(0),
              etag: o.etag ?? "",
              isDir: false,
              storageClass: "STANDARD",
              ...(options.versions ? { versionId: o.versionId ?? "null", isLatest: o.isLatest === true || o.isLatest === "true", isDeleteMarker: o.isDeleteMarker === true } : {}),
            },
      );
      // Versions and delete markers arrive in separate groups: newest first per key.
      entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : b.lastModified.getTime() - a.lastModified.getTime()));
      yield* entries;
      if (!page.isTruncated) return;
      if (options.versions) {
        keyMarker = page.keyMarker ?? "";
        versionIdMarker = page.versionIdMarker ?? "";
        if (!keyMarker) return;
      } else {
        marker = page.nextMarker ?? objects.at(-1)?.name ?? objects.at(-1)?.prefix ?? "";
        if (!marker) return;
      }
    }
  }
  const store: Store = {
    kind: "s3",
    url: (key) => base + key,
    async stat(key, versionId) {
      if (key === "" || key.endsWith("/")) return undefined;
      try {
        const s = await client.statObject(bucket, key, versionId ? { versionId } : {});
        const metadata: Record<string, string> = {};
        let contentType: string | undefined;
        for (const [k, v] of Object.entries(s.metaData ?? {})) {
          if (k.toLowerCase() === "content-type") contentType = String(v);
          // Server-side encryption headers are the server's, not user metadata.
          else if (k.toLowerCase().startsWith("x-amz-server-side-encryption")) metadata[canonicalHeader(k)] = String(v);
          // The SDK strips x-amz-meta- from user metadata but keeps the object's own headers as they are.
          else if (objectHeaders.has(k.toLowerCase())) metadata[canonicalHeader(k)] = String(v);
          else metadata[canonicalHeader(k.startsWith("x-amz-meta-") || k.toLowerCase().startsWith("x-amz-meta-") ? k : `X-Amz-Meta-${k}`)] = String(v);
        }
        const info: ObjectInfo = {
          key,
          size: s.size,
          lastModified: s.lastModified,
          etag: s.etag,
          isDir: false,
          storageClass: "STANDARD",
          metadata,
          ...(contentType === undefined ? {} : { contentType }),
          ...(s.versionId ? { versionId: s.versionId } : {}),
          ...sseOf(metadata),
        };
        return info;
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async isDir(key) {
      const prefix = key === "" || key.endsWith("/") ? key : `${key}/`;
      const page = await client.listObjectsQuery(bucket, prefix, "", { Delimiter: "/", MaxKeys: 1 });
      return (page.objects ?? []).length > 0;
    },
    list,
    async read(key, options: ReadOptions = {}): Promise<Readable> {
      const opts = options.versionId ? { versionId: options.versionId } : {};
      if (options.offset !== undefined || options.length !== undefined) {
        return client.getPartialObject(bucket, key, options.offset ?? 0, options.length, opts);
      }
      return client.getObject(bucket, key, opts);
    },
    async copyFrom(src, srcKey, key, size, versionId) {
      const origin = origins.get(src);
      if (!origin || origin.client !== client || size > maxSingleCopy) return false;
      const source = `/${origin.bucket}/${encodeURIComponent(srcKey).replace(/%2F/g, "/")}${versionId ? `?versionId=${encodeURIComponent(versionId)}` : ""}`;
      await client.copyObject(bucket, key, source);
      return true;
    },
    write(key, source, _size, options: WriteOptions = {}) {
      return uploadToS3(client, bucket, key, source, upload, options);
    },
    async remove(key, versionId) {
      // DeleteObject's response headers carry the delete marker; minio's removeObject hides them.
      const query = versionId ? `versionId=${encodeURIComponent(versionId)}` : "";
      const res = await client.makeRequestAsync({ method: "DELETE", bucketName: bucket, objectName: key, query }, "", [200, 204]);
      res.resume();
      return { deleteMarker: res.headers["x-amz-delete-marker"] === "true", versionId: String(res.headers["x-amz-version-id"] ?? "") };
    },
  };
  origins.set(store, { client, bucket });
  return store;
}
