import { Client } from "minio";
import { AppError } from "@mc/shared/errors";
import type { ReleaseStore } from "../domain/release-store.js";

export interface S3StoreOptions {
  /** `http(s)://host:port` of the S3 service. */
  readonly endpoint: string;
  readonly bucket: string;
  /** Key prefix inside the bucket (no leading or trailing slash), or "". */
  readonly prefix: string;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly region: string;
}

function isNotFound(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === "NoSuchKey" || code === "NotFound" || code === "NoSuchBucket";
}

function checkPath(path: string): string {
  if (path === "" || path.split("/").some((p) => p === "" || p === "." || p === ".." || p.includes("\\") || p.includes("\0"))) {
    throw new AppError("invalid_argument", "invalid store path");
  }
  return path;
}

/**
 * The release store on an S3 bucket, laid out exactly like the directory
 * store (and the public URL space). A PUT replaces an object atomically, so
 * readers never see half a file.
 */
export async function createS3ReleaseStore(options: S3StoreOptions): Promise<ReleaseStore> {
  const url = new URL(options.endpoint);
  const client = new Client({
    endPoint: url.hostname,
    port: Number(url.port || (url.protocol === "https:" ? 443 : 80)),
    useSSL: url.protocol === "https:",
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region: options.region,
    pathStyle: true,
  });
  const { bucket } = options;
  const key = (path: string): string => (options.prefix === "" ? checkPath(path) : `${options.prefix}/${checkPath(path)}`);
  if (!(await client.bucketExists(bucket))) throw new AppError("failed_precondition", `bucket '${bucket}' does not exist`);

  async function readAll(stream: AsyncIterable<Buffer>): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c);
    return new Uint8Array(Buffer.concat(chunks));
  }

  return {
    async read(path) {
      try {
        return await readAll(await client.getObject(bucket, key(path)));
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async stat(path) {
      try {
        const s = await client.statObject(bucket, key(path));
        return { size: s.size, modified: s.lastModified };
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async list(dir) {
      const prefix = dir === "" ? (options.prefix === "" ? "" : `${options.prefix}/`) : `${key(dir)}/`;
      const names: string[] = [];
      for await (const item of client.listObjectsV2(bucket, prefix, false)) {
        const name = (item.prefix ?? item.name ?? "").slice(prefix.length).replace(/\/$/, "");
        if (name !== "") names.push(name);
      }
      return names.sort();
    },
    async write(path, data) {
      await client.putObject(bucket, key(path), Buffer.from(data.buffer, data.byteOffset, data.byteLength), data.byteLength);
    },
    async openRead(path, range) {
      try {
        return range ? await client.getPartialObject(bucket, key(path), range.start, range.end - range.start + 1) : await client.getObject(bucket, key(path));
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
  };
}
