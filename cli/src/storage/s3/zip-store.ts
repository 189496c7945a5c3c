import type { Client } from "minio";
import { mcError } from "../../core/errors.js";
import type { Entry, Store } from "../types.js";
import { createS3Store } from "./s3-store.js";
import type { UploadSettings } from "./s3-upload.js";

/**
 * MinIO's S3 zip extension: with `x-minio-extract: true`, a key inside an
 * archive (`photos/2024.zip/jan/a.jpg`) is listed, stat'ed and read as if the
 * archive were a folder (minio-go: `opts.Set("x-minio-extract", "true")` on
 * ListObjects, StatObject and GetObject). `--zip` on ls, cat, head and cp.
 */
export const zipHeader = "x-minio-extract";
const feature = "Reading inside ZIP archives (MinIO's x-minio-extract extension)";

type RequestArgs = Parameters<Client["makeRequestAsync"]>;
const zipClients = new WeakMap<Client, Client>();

/** The same client, every request carrying the extension's header (signed like any other). */
function zipClient(client: Client): Client {
  let z = zipClients.get(client);
  if (z === undefined) {
    const wrapped = Object.create(client) as Client;
    const makeRequestAsync = (options: RequestArgs[0], ...rest: RequestArgs extends [unknown, ...infer R] ? R : never) =>
      client.makeRequestAsync({ ...options, headers: { ...options.headers, [zipHeader]: "true" } }, ...rest);
    // Defined, not assigned: the client may be a proxy (s3-client.ts lazyClient), and an assignment
    // would go through its `set` and replace the SDK client's own method (a loop without end).
    Object.defineProperty(wrapped, "makeRequestAsync", { value: makeRequestAsync, writable: true, configurable: true });
    zipClients.set(client, wrapped);
    z = wrapped;
  }
  return z;
}

/** `archive.zip` of a key inside one (the first `.zip/` of the key), or undefined. */
export function archiveOf(key: string): string | undefined {
  const i = key.toLowerCase().indexOf(".zip/");
  return i < 0 ? undefined : key.slice(0, i + 4);
}

/**
 * A bucket store whose keys inside a `.zip` go to MinIO's extension; other
 * keys (a cp target, the archive itself) stay plain. A server without the
 * extension (Ceph RGW) shows nothing below `archive.zip/` although the
 * archive exists: that is one clear failure instead of "not found".
 */
function zipAware(inner: Store, zip: Store, bucket: string): Store {
  const unsupported = async (key: string): Promise<void> => {
    const archive = archiveOf(key);
    if (archive === undefined) return;
    const exists = (await inner.stat(archive).catch(() => undefined)) !== undefined;
    if (!exists) return;
    for await (const _ of zip.list(`${archive}/`, { recursive: false })) return;
    throw mcError(`${feature} is not supported by this server.`, Object.assign(new Error(`Server error code: none; it lists nothing inside the archive \`${bucket}/${archive}\``), { code: "NotImplemented", bucketname: bucket, key }), "unimplemented");
  };
  const pick = (key: string): Store => (archiveOf(key) === undefined ? inner : zip);
  return {
    ...inner,
    url: (key) => inner.url(key),
    async stat(key, versionId) {
      const info = await pick(key).stat(key, versionId);
      if (info === undefined) await unsupported(key);
      return info;
    },
    isDir: (key) => pick(key).isDir(key),
    async *list(prefix, options) {
      let any = false;
      for await (const e of pick(prefix).list(prefix, options) as AsyncIterable<Entry>) {
        any = true;
        yield e;
      }
      if (!any) await unsupported(prefix);
    },
    async read(key, options) {
      try {
        return await pick(key).read(key, options);
      } catch (err) {
        await unsupported(key);
        throw err;
      }
    },
  };
}

/** The store of one bucket for `--zip`: `inner` for plain keys, MinIO's extension inside archives. */
export function createZipStore(inner: Store, client: Client, aliasName: string, bucket: string, upload: UploadSettings): Store {
  return zipAware(inner, createS3Store(zipClient(client), aliasName, bucket, upload), bucket);
}
