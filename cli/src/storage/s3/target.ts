import type { Client } from "minio";
import { usageError } from "../../core/errors.js";
import type { Locator } from "../location.js";

export interface BucketTarget {
  readonly client: Client;
  readonly alias: string;
  readonly bucket: string;
  /** What follows the bucket (may be ""). */
  readonly key: string;
  /** `alias/bucket` as shown to the user. */
  readonly url: string;
}

/** A remote `alias/bucket[/key]` argument; `command` words the usage error. */
export function bucketTarget(ctx: Locator, arg: string | undefined, command: string, allowKey = false): BucketTarget {
  if (arg === undefined || arg === "") throw usageError(`${command} needs a TARGET (alias/bucket).`);
  const loc = ctx.locate(arg);
  if (loc.kind !== "s3" || loc.bucket === "") throw usageError(`${command} needs a remote bucket (alias/bucket), not \`${arg}\`.`);
  if (!allowKey && loc.key !== "") throw usageError(`${command} works on a bucket (alias/bucket), not on \`${arg}\`.`);
  return { client: loc.client, alias: loc.alias.name, bucket: loc.bucket, key: loc.key, url: `${loc.alias.name}/${loc.bucket}` };
}
