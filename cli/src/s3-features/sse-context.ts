import type { ResolvedAlias } from "../config/aliases.js";
import type { McContext } from "../context.js";
import { parseLocation, requireStore } from "../storage/location.js";
import type { Store } from "../storage/types.js";
import type { UploadSettings } from "../transfer/s3-upload.js";
import { createEncryptedStore } from "./encrypted-store.js";
import { parseSseFlags } from "./sse-keys.js";

/**
 * The context a command uses when `--enc-c`/`--enc-kms` are given: every
 * bucket store it hands out encrypts and decrypts the keys under those
 * prefixes. Without the flags the context is returned as it is.
 */
export function withEncryption(ctx: McContext, encC: readonly string[] | undefined, encKms: readonly string[] | undefined): McContext {
  const kmsEnv = process.env["MC_ENC_KMS"];
  const keys = parseSseFlags(encC ?? [], [...(encKms ?? []), ...(kmsEnv ? [kmsEnv] : [])], new Set(ctx.aliases.keys()));
  if (!keys) return ctx;
  const localStore = requireStore(ctx.locate("/"));
  const wrap = (base: McContext): McContext => {
    const bucketStore = (alias: ResolvedAlias, bucket: string, upload?: UploadSettings): Store =>
      createEncryptedStore(base.bucketStore(alias, bucket, upload), base.client(alias), bucket, keys);
    return {
      ...base,
      bucketStore,
      locate: (arg) => parseLocation(arg, { aliases: base.aliases, localStore, client: base.client, bucketStore: (alias, bucket) => bucketStore(alias, bucket) }),
      withUpload: (upload) => wrap(base.withUpload(upload)),
    };
  };
  return wrap(ctx);
}
