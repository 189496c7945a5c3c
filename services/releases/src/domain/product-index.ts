import type { CatalogEntry } from "./catalog-entry.js";
import { checkFilter, type ReleaseFilter, type ReleasePage } from "./release-query.js";
import { parseReleaseId, type Ordered } from "./release-id.js";

/**
 * One product's releases, ordered once per catalog change so that a list
 * page, `latest`, a feed or a lookup costs what it returns, not the size of
 * the catalog (issue 26). Built from the same entries `queryReleases` takes
 * and answering exactly as it does.
 */
export interface ProductIndex {
  /** Newest first (release order, then component name), as `newestFirst`. */
  readonly newest: readonly CatalogEntry[];
  /** The first entry with that id in store order (component, then id): what the `after` cursor's date is taken from. */
  readonly firstById: ReadonlyMap<string, CatalogEntry>;
  /** `<component>/<id>` → entry. */
  readonly byKey: ReadonlyMap<string, CatalogEntry>;
  readonly components: readonly string[];
  /** Newest `release_date` (publish time), "" when none. */
  readonly lastReleaseDate: string;
}

interface SortKey {
  readonly epoch: number;
  readonly hotfix: boolean;
  readonly date: string;
  readonly id: string;
}

const keyOf = (o: Ordered): SortKey => {
  const p = parseReleaseId(o.releaseId);
  return { epoch: p.epochSeconds, hotfix: p.hotfix !== undefined, date: o.releaseDate, id: o.releaseId };
};

/** `compareReleases` on parsed keys (the sort would otherwise parse two ids per comparison). */
function compareKeys(a: SortKey, b: SortKey): number {
  if (a.epoch !== b.epoch) return a.epoch - b.epoch;
  if (a.hotfix !== b.hotfix) return a.hotfix ? 1 : -1;
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const keys = new WeakMap<CatalogEntry, SortKey>();
function sortKey(e: CatalogEntry): SortKey {
  let k = keys.get(e);
  if (!k) {
    k = keyOf(e);
    keys.set(e, k);
  }
  return k;
}

/** Builds the index of one product's entries (given in store order). */
export function indexProduct(entries: readonly CatalogEntry[]): ProductIndex {
  const newest = [...entries].sort((a, b) => compareKeys(sortKey(b), sortKey(a)) || (a.component < b.component ? -1 : a.component > b.component ? 1 : 0));
  const firstById = new Map<string, CatalogEntry>();
  const byKey = new Map<string, CatalogEntry>();
  const components = new Set<string>();
  let lastReleaseDate = "";
  for (const e of entries) {
    if (!firstById.has(e.releaseId)) firstById.set(e.releaseId, e);
    byKey.set(`${e.component}/${e.releaseId}`, e);
    components.add(e.component);
    if (e.releaseDate > lastReleaseDate) lastReleaseDate = e.releaseDate;
  }
  return { newest, firstById, byKey, components: [...components].sort(), lastReleaseDate };
}

function narrow(entry: CatalogEntry, filter: ReleaseFilter): CatalogEntry | undefined {
  if (filter.os === undefined && filter.arch === undefined) return entry;
  const platforms = entry.platforms.filter((p) => (filter.os === undefined || p.os === filter.os) && (filter.arch === undefined || p.arch === filter.arch));
  return platforms.length > 0 ? { ...entry, platforms } : undefined;
}

/** Position of the first entry strictly older than the cursor: the ones not older form a prefix of `newest`. */
function startAfter(index: ProductIndex, after: string): number {
  const cursor = keyOf({ releaseId: after, releaseDate: index.firstById.get(after)?.releaseDate ?? "9999" });
  let lo = 0;
  let hi = index.newest.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(sortKey(index.newest[mid] as CatalogEntry), cursor) >= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `queryReleases` without a search (`query`): the same records and cursor,
 * reading from the cursor's place only as far as the page needs.
 */
export function queryIndex(index: ProductIndex, filter: ReleaseFilter, supportedOnly = false): ReleasePage {
  checkFilter(filter);
  const want = filter.limit === undefined ? Number.POSITIVE_INFINITY : filter.limit + 1;
  const selected: CatalogEntry[] = [];
  const start = filter.after === undefined ? 0 : startAfter(index, filter.after);
  for (let i = start; i < index.newest.length && selected.length < want; i++) {
    const entry = index.newest[i] as CatalogEntry;
    if (supportedOnly && entry.status !== "supported") continue;
    if (filter.component !== undefined && entry.component !== filter.component) continue;
    if (entry.releaseId === filter.after) continue;
    const narrowed = narrow(entry, filter);
    if (narrowed) selected.push(narrowed);
  }
  if (filter.limit === undefined || selected.length <= filter.limit) return { entries: selected, nextAfter: undefined };
  const page = selected.slice(0, filter.limit);
  return { entries: page, nextAfter: page.at(-1)?.releaseId };
}

/** `latestRelease` from the index: the first supported match, newest first. */
export function latestInIndex(index: ProductIndex, filter: Omit<ReleaseFilter, "limit" | "after" | "query">): CatalogEntry | undefined {
  return queryIndex(index, { ...filter, limit: 1 }, true).entries[0];
}
