import type { Client } from "minio";
import { usageError } from "../../core/errors.js";
import type { Locator } from "../location.js";
import type { Store } from "../types.js";

/** A bucket or object on an S3 alias: what every versioning, lock, tag and policy command acts on. */
export interface S3Target {
  readonly arg: string;
  readonly client: Client;
  readonly aliasName: string;
  readonly aliasUrl: string;
  readonly bucket: string;
  /** "" for the bucket itself. */
  readonly key: string;
  readonly store: Store;
  /** `alias/bucket[/key]`, as shown to the user. */
  readonly url: string;
}

/** Resolves TARGET; a local path or a bare alias is a usage error (these features exist only on S3 buckets). */
export function s3Target(ctx: Locator, arg: string | undefined, command: string): S3Target {
  if (arg === undefined || arg === "") throw usageError(`${command} needs a TARGET (ALIAS/BUCKET[/PREFIX]).`);
  const loc = ctx.locate(arg);
  if (loc.kind !== "s3") throw usageError(`\`${arg}\` is not an S3 target; ${command} works on ALIAS/BUCKET[/OBJECT] only.`);
  if (loc.bucket === "" || !loc.store) throw usageError(`\`${arg}\` needs a bucket name.`);
  const key = loc.key;
  return {
    arg,
    client: loc.client,
    aliasName: loc.alias.name,
    aliasUrl: loc.alias.url,
    bucket: loc.bucket,
    key,
    store: loc.store,
    url: key === "" ? `${loc.alias.name}/${loc.bucket}` : loc.store.url(key),
  };
}

/** The target must name a bucket only (version, retention --default). */
export function requireBucketOnly(t: S3Target, command: string): void {
  if (t.key.replace(/\/+$/, "") !== "") throw usageError(`${command} takes ALIAS/BUCKET, not an object (\`${t.arg}\`).`);
}

/** The target must name an object (legalhold, object retention without -r). */
export function requireObject(t: S3Target, command: string): void {
  if (t.key === "") throw usageError(`${command} needs an object (ALIAS/BUCKET/OBJECT), not a bucket (\`${t.arg}\`).`);
}
