import type { McContext } from "./context.js";
import { wrapBucketStores } from "./wrap-buckets.js";
import { createZipStore } from "../storage/s3/zip-store.js";

/** The context for `--zip`: every bucket store reads inside archives through MinIO's extension (storage/s3/zip-store.ts). */
export function withZip(ctx: McContext, zip: boolean): McContext {
  if (!zip) return ctx;
  return wrapBucketStores(ctx, (inner, base, alias, bucket) => createZipStore(inner, base.client(alias), alias.name, bucket, base.upload));
}
