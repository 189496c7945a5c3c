import { AppError } from "@mc/shared/errors";
import type { CatalogEntry } from "./catalog-entry.js";
import { layout } from "./layout.js";
import { isName } from "./names.js";
import { compareReleases, tryParseReleaseId, type ReleaseId } from "./release-id.js";
import type { ReleaseStore } from "./release-store.js";

const decoder = new TextDecoder();

function parseJson(bytes: Uint8Array, path: string): unknown {
  try {
    return JSON.parse(decoder.decode(bytes)) as unknown;
  } catch (cause) {
    throw new AppError("internal", `catalog file ${path} is not valid JSON`, { cause });
  }
}

export async function readCatalogEntry(store: ReleaseStore, product: string, component: string, releaseId: string): Promise<CatalogEntry | undefined> {
  const path = layout.catalogEntry(product, component, releaseId);
  const bytes = await store.read(path);
  return bytes === undefined ? undefined : (parseJson(bytes, path) as CatalogEntry);
}

/** Every catalog entry of one component. */
export async function readComponentEntries(store: ReleaseStore, product: string, component: string): Promise<CatalogEntry[]> {
  const ids = (await store.list(layout.catalogDir(product, component)))
    .filter((n) => n.endsWith(".json"))
    .map((n) => n.slice(0, -".json".length))
    .filter((id) => tryParseReleaseId(id) !== undefined);
  const loaded = await Promise.all(ids.map((id) => readCatalogEntry(store, product, component, id)));
  return loaded.filter((e): e is CatalogEntry => e !== undefined);
}

/** Every catalog entry in the store, per product. */
export async function readCatalog(store: ReleaseStore): Promise<Map<string, CatalogEntry[]>> {
  const out = new Map<string, CatalogEntry[]>();
  for (const product of (await store.list("_catalog")).filter(isName)) {
    const entries: CatalogEntry[] = [];
    for (const component of (await store.list(`_catalog/${product}`)).filter(isName)) {
      entries.push(...(await readComponentEntries(store, product, component)));
    }
    out.set(product, entries);
  }
  return out;
}

/**
 * The newest supported entry of one component, reading only the records it
 * must: the listing orders the ids by release time (and hotfix), and only
 * the records of the newest time are read (more only when those are
 * withdrawn), so a publish does not read every record of a long catalog.
 * Same answer as `latestRelease(readComponentEntries(...), {})`.
 */
export async function readLatestEntry(store: ReleaseStore, product: string, component: string): Promise<CatalogEntry | undefined> {
  const parsed = (await store.list(layout.catalogDir(product, component)))
    .filter((n) => n.endsWith(".json"))
    .map((n) => tryParseReleaseId(n.slice(0, -".json".length)))
    .filter((p) => p !== undefined);
  const rank = (p: (typeof parsed)[number]): number => p.epochSeconds * 2 + (p.hotfix === undefined ? 0 : 1);
  parsed.sort((a, b) => rank(b) - rank(a));
  for (let i = 0; i < parsed.length; ) {
    // One group: ids of the same time and hotfix-ness, ordered among themselves by publish date (in the records).
    let j = i;
    while (j < parsed.length && rank(parsed[j] as ReleaseId) === rank(parsed[i] as ReleaseId)) j++;
    const group = await Promise.all(parsed.slice(i, j).map((p) => readCatalogEntry(store, product, component, p.id)));
    const supported = group.filter((e): e is CatalogEntry => e !== undefined && e.status === "supported");
    if (supported.length > 0) return supported.reduce((best, e) => (compareReleases(e, best) > 0 ? e : best));
    i = j;
  }
  return undefined;
}
