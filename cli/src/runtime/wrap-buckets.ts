import type { ResolvedAlias } from "../config/aliases.js";
import type { McContext } from "./context.js";
import { parseLocation, requireStore } from "../storage/location.js";
import type { Store } from "../storage/types.js";
import type { UploadSettings } from "../storage/s3/s3-upload.js";

/** Wraps one bucket's store; `base` is the context it came from (for its clients). */
export type BucketWrapper = (inner: Store, base: McContext, alias: ResolvedAlias, bucket: string) => Store;

/**
 * A context whose every bucket store, however it is reached (locate,
 * bucketStore, after withUpload), goes through `wrapStore` first. Local
 * paths keep the local store. Wrappers compose: wrap a wrapped context.
 */
export function wrapBucketStores(ctx: McContext, wrapStore: BucketWrapper): McContext {
  const localStore = requireStore(ctx.locate("/"));
  const wrap = (base: McContext): McContext => {
    const bucketStore = (alias: ResolvedAlias, bucket: string, upload?: UploadSettings): Store => wrapStore(base.bucketStore(alias, bucket, upload), base, alias, bucket);
    return {
      ...base,
      bucketStore,
      locate: (arg) => parseLocation(arg, { aliases: base.aliases, localStore, client: base.client, bucketStore: (alias, bucket) => bucketStore(alias, bucket) }),
      withUpload: (upload) => wrap(base.withUpload(upload)),
    };
  };
  return wrap(ctx);
}
