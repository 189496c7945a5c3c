import type { Readable } from "node:stream";
import type { Client } from "minio";
import { s3Code } from "../../core/errors.js";
import { s3Call } from "./s3-request.js";
import { readObject } from "./s3-read.js";
import { createRangeConnection } from "./range-connection.js";
import { rangeDialFor } from "./s3-range-dial.js";
import { uploadToS3, type UploadSettings } from "./s3-upload.js";
import { copyObject } from "./s3-copy.js";
import { copySource, s3Escape } from "./s3-escape.js";
import { objectInfoFromHeaders } from "./s3-head.js";
import { anyBelow, listS3 } from "./s3-list.js";
import type { ReadOptions, Store, WriteOptions } from "../types.js";

export function isNotFound(err: unknown): boolean {
  return ["NoSuchKey", "NotFound", "NoSuchVersion"].includes(s3Code(err));
}

/** Which client and bucket an S3 store uses, for server-side copies between stores. */
const origins = new WeakMap<Store, { client: Client; bucket: string }>();
const maxSingleCopy = 5 * 1024 ** 3;

/** One bucket of one alias; keys are object keys. */
export function createS3Store(client: Client, aliasName: string, bucket: string, upload: UploadSettings): Store {
  const base = `${aliasName}/${bucket}/`;
  const store: Store = {
    kind: "s3",
    url: (key) => base + key,
    async stat(key, versionId) {
      if (key === "" || key.endsWith("/")) return undefined;
      const res = await s3Call(client, {
        method: "HEAD",
        bucket,
        key,
        query: versionId ? `versionId=${s3Escape(versionId)}` : "",
        headers: { "x-amz-checksum-mode": "ENABLED" },
        expect: [200, 404, 405],
      });
      if (res.status === 200) return objectInfoFromHeaders(key, res.headers);
      // A version that is a delete marker: AWS and MinIO answer 405 and say so in a header.
      if (versionId && res.headers["x-amz-delete-marker"] === "true") return { ...objectInfoFromHeaders(key, res.headers), size: 0, etag: "", versionId, isDeleteMarker: true };
      if (res.status === 404) return undefined;
      throw Object.assign(new Error("Method Not Allowed"), { code: "MethodNotAllowed", key, bucketname: bucket });
    },
    isDir: (key) => anyBelow(client, bucket, key === "" || key.endsWith("/") ? key : `${key}/`),
    list: (prefix, options) => listS3(client, bucket, prefix, options),
    read: (key, options: ReadOptions = {}): Promise<Readable> => readObject(client, bucket, key, options),
    rangeConnector(key, options) {
      const dial = rangeDialFor(client, bucket, key, options);
      return dial && ((signal) => createRangeConnection(dial, signal));
    },
    async copyFrom(src, srcKey, key, size, versionId) {
      const origin = origins.get(src);
      if (!origin || origin.client !== client || size > maxSingleCopy) return false;
      await copyObject(client, copySource(origin.bucket, srcKey, versionId), bucket, key);
      return true;
    },
    write(key, source, _size, options: WriteOptions = {}) {
      return uploadToS3(client, bucket, key, source, upload, options);
    },
    async remove(key, versionId) {
      // DeleteObject's response headers carry the delete marker; minio's removeObject hides them.
      const query = versionId ? `versionId=${s3Escape(versionId)}` : "";
      const res = await client.makeRequestAsync({ method: "DELETE", bucketName: bucket, objectName: key, query }, "", [200, 204]);
      res.resume();
      return { deleteMarker: res.headers["x-amz-delete-marker"] === "true", versionId: String(res.headers["x-amz-version-id"] ?? "") };
    },
  };
  origins.set(store, { client, bucket });
  return store;
}
