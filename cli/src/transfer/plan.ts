import { mcError } from "../core/errors.js";
import { displayUrl, requireStore, type Location } from "../storage/location.js";
import type { Entry, Store } from "../storage/types.js";

export interface SourceItem {
  readonly store: Store;
  readonly key: string;
  readonly entry: Entry;
  /** Where the item lands below a target folder. */
  readonly rel: string;
  /** One version of the object rather than its latest (cp --version-id). */
  readonly versionId?: string;
}

export interface AgeFilter {
  /** Keep objects at least this old (ms). */
  readonly olderThan?: number;
  /** Keep objects younger than this (ms). */
  readonly newerThan?: number;
}

export function passesAge(entry: Entry, filter: AgeFilter, now = Date.now()): boolean {
  const age = now - entry.lastModified.getTime();
  if (filter.olderThan !== undefined && age < filter.olderThan) return false;
  if (filter.newerThan !== undefined && age >= filter.newerThan) return false;
  return true;
}

const baseName = (key: string): string => key.replace(/\/$/, "").slice(key.replace(/\/$/, "").lastIndexOf("/") + 1);

/** The folder prefix of a location: `` for a bucket root, else the key with one trailing slash. */
export function dirPrefix(key: string): string {
  return key === "" || key.endsWith("/") ? key : `${key}/`;
}

/**
 * Objects a source stands for (cmd/cp-url.go): one object, or with -r every
 * object below it; `src/` copies the contents, `src` nests its own name.
 */
export async function* sourceItems(loc: Location, recursive: boolean, filter: AgeFilter = {}, versionId?: string): AsyncGenerator<SourceItem> {
  const store = requireStore(loc);
  const exact = loc.key === "" || loc.key.endsWith("/") ? undefined : await store.stat(loc.key, versionId);
  if (exact && !exact.isDeleteMarker) {
    if (passesAge(exact, filter)) yield { store, key: loc.key, entry: exact, rel: baseName(loc.key), ...(versionId ? { versionId } : {}) };
    return;
  }
  if (versionId !== undefined) {
    throw mcError(`Unable to stat \`${displayUrl(loc, loc.key)}\` (versionId=${versionId}).`, Object.assign(new Error("Object does not exist"), { code: "NoSuchVersion" }), "not_found");
  }
  const prefix = dirPrefix(loc.key);
  if (!recursive) {
    if (await store.isDir(loc.key)) throw mcError(`\`${loc.arg}\` is a folder.`, new Error("Use --recursive to copy folders"), "invalid_argument");
    throw mcError(`Unable to stat \`${displayUrl(loc, loc.key)}\`.`, Object.assign(new Error("Object does not exist"), { code: "NoSuchKey" }), "not_found");
  }
  const nested = loc.arg.endsWith("/") ? "" : `${baseName(loc.kind === "s3" && loc.key === "" ? loc.bucket : loc.key)}/`;
  let found = false;
  for await (const entry of store.list(prefix, { recursive: true })) {
    if (entry.isDir) continue;
    found = true;
    if (passesAge(entry, filter)) yield { store, key: entry.key, entry, rel: nested + entry.key.slice(prefix.length) };
  }
  if (!found && !(await store.isDir(loc.key)) && loc.key !== "") {
    throw mcError(`Unable to stat \`${displayUrl(loc, loc.key)}\`.`, Object.assign(new Error("Object does not exist"), { code: "NoSuchKey" }), "not_found");
  }
}

/** True when the target names a folder: trailing slash, bucket root, or an existing directory/prefix. */
export async function targetIsDir(loc: Location): Promise<boolean> {
  if (loc.key === "" || loc.key.endsWith("/")) return true;
  return requireStore(loc).isDir(loc.key);
}

export function targetKey(loc: Location, rel: string, asDir: boolean): string {
  return asDir ? dirPrefix(loc.key) + rel : loc.key;
}
