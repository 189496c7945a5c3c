import type { McContext } from "./context.js";
import { createEncryptedStore } from "../storage/s3/sse/encrypted-store.js";
import { parseSseFlags } from "../storage/s3/sse/sse-keys.js";
import { wrapBucketStores } from "./wrap-buckets.js";

/**
 * The context a command uses when `--enc-c`/`--enc-kms`/`--enc-s3` are given: every
 * bucket store it hands out encrypts and decrypts the keys under those
 * prefixes. Without the flags the context is returned as it is.
 */
export function withEncryption(ctx: McContext, encC: readonly string[] | undefined, encKms: readonly string[] | undefined, encS3: readonly string[] = []): McContext {
  const kmsEnv = process.env["MC_ENC_KMS"];
  const keys = parseSseFlags(encC ?? [], [...(encKms ?? []), ...(kmsEnv ? [kmsEnv] : [])], new Set(ctx.aliases.keys()), encS3);
  if (!keys) return ctx;
  return wrapBucketStores(ctx, (inner, base, alias, bucket) => createEncryptedStore(inner, base.client(alias), bucket, keys));
}
