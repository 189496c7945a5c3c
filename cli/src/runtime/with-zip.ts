import { createS3Store } from "../storage/s3/s3-store.js";
import { zipAware, zipClient } from "../storage/s3/zip-store.js";
import type { McContext } from "./context.js";
import { wrapBucketStores } from "./wrap-buckets.js";

/** The context for `--zip`: every bucket store reads inside archives through MinIO's extension. */
export function withZip(ctx: McContext, zip: boolean): McContext {
  if (!zip) return ctx;
  return wrapBucketStores(ctx, (inner, base, alias, bucket) => zipAware(inner, createS3Store(zipClient(base.client(alias)), alias.name, bucket, base.upload), bucket));
}
