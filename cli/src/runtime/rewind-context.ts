import type { McContext } from "./context.js";
import { parseRewind } from "../storage/s3/versions/rewind-time.js";
import { createRewoundStore } from "../storage/s3/versions/rewound-store.js";
import { wrapBucketStores } from "./wrap-buckets.js";

/**
 * The context a command uses with `--rewind`: every bucket it reads shows
 * its objects as they were at that moment (local paths have no history and
 * stay as they are). Without the flag the context is returned as it is.
 */
export function withRewind(ctx: McContext, rewind: string | undefined): McContext {
  if (rewind === undefined) return ctx;
  const at = parseRewind(rewind, Date.now());
  return wrapBucketStores(ctx, (inner) => createRewoundStore(inner, at));
}
