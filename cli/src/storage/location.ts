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
  // 3 to 63 characters, as every S3 server requires (checked here, so a two-letter name gets
  // our one line rather than each server's own text); upper case and `_` stay readable,
  // as buckets made before the rules were tightened may have them.
  if (bucket !== "" && !/^[a-z0-9][a-z0-9.\-_]{2,62}$/i.test(bucket)) {
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
