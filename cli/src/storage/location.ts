import { resolve as resolvePath } from "node:path";
import type { Client } from "minio";
import type { ResolvedAlias } from "../config/aliases.js";
import { mcError } from "../core/errors.js";
import type { Store } from "./types.js";

export type Location =
  | { readonly kind: "local"; readonly arg: string; readonly store: Store; readonly key: string }
  | {
      readonly kind: "s3";
      readonly arg: string;
      readonly alias: ResolvedAlias;
      readonly client: Client;
      readonly bucket: string;
      /** Undefined for a bare alias (no bucket). */
      readonly store: Store | undefined;
      readonly key: string;
    };

/** What resolves a command-line address (the command context is one). */
export interface Locator {
  locate(arg: string): Location;
}

export interface LocationDeps {
  readonly aliases: ReadonlyMap<string, ResolvedAlias>;
  readonly localStore: Store;
  client(alias: ResolvedAlias): Client;
  bucketStore(alias: ResolvedAlias, bucket: string): Store;
}

/**
 * minio-go's relaxed rule (s3utils.CheckValidBucketName), which the original
 * client applies to every name it is given: 3 to 63 characters, no IP
 * address, no `..`, `.-` or `-.`. Upper case, `_` and `:` stay readable, as
 * buckets made before the rules were tightened may have them (the bundle
 * turns the S3 SDK's stricter check off: cli/scripts/sdk-bucket-names.mjs).
 * Checked here, once, so a bad name gets our one line, never a server's text.
 */
export function isBucketName(name: string): boolean {
  if (/^(\d+\.){3}\d+$/.test(name) || /\.\.|\.-|-\./.test(name)) return false;
  return /^[A-Za-z0-9][A-Za-z0-9.\-_:]{1,61}[A-Za-z0-9]$/.test(name);
}

/** The strict rule (s3utils.CheckValidBucketNameStrict) for a bucket `mb` creates: no legacy names made anew. */
export function isNewBucketName(name: string): boolean {
  return isBucketName(name) && /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name);
}

/**
 * One address syntax: `alias[/bucket[/key]]` when the first segment names an
 * alias, else a local path (absolute, or relative to the working directory).
 */
export function parseLocation(arg: string, deps: LocationDeps): Location {
  const explicitLocal = /^(\/|\.|~)/.test(arg);
  const [head = "", ...rest] = arg.split("/");
  const alias = explicitLocal ? undefined : deps.aliases.get(head);
  if (!alias) {
    const expanded = arg.startsWith("~/") ? `${process.env["HOME"] ?? ""}${arg.slice(1)}` : arg;
    const abs = resolvePath(expanded);
    const key = (arg.endsWith("/") || arg.endsWith("/.") || arg === ".") && abs !== "/" ? `${abs}/` : abs;
    return { kind: "local", arg, store: deps.localStore, key };
  }
  const bucket = rest[0] ?? "";
  const key = rest.slice(1).join("/");
  if (bucket !== "" && !isBucketName(bucket)) {
    throw mcError(`Invalid bucket name \`${bucket}\`.`, undefined, "invalid_argument");
  }
  const client = deps.client(alias);
  return { kind: "s3", arg, alias, client, bucket, store: bucket === "" ? undefined : deps.bucketStore(alias, bucket), key };
}

/** The store of a location, or a usage error for a bare alias where a bucket is needed. */
export function requireStore(loc: Location): Store {
  if (loc.store) return loc.store;
  throw mcError(`\`${loc.arg}\` needs a bucket name.`, undefined, "invalid_argument");
}

/** The user-facing URL of a key inside the location's store. */
export function displayUrl(loc: Location, key: string): string {
  if (loc.kind === "local") return key;
  return loc.store ? loc.store.url(key) : `${loc.alias.name}/${key}`;
}

/**
 * The `url` of `ls --json` (cmd/ls.go prints the client URL): the server's
 * `scheme://host/bucket/key` for an alias, the path for a local folder.
 */
export function listingUrl(loc: Location, key: string): string {
  if (loc.kind === "local") return key;
  const root = loc.alias.url.replace(/\/+$/, "");
  return loc.bucket === "" ? `${root}/` : `${root}/${loc.bucket}/${key}`;
}
