import { AppError } from "@mc/shared/errors";
import type { CatalogEntry } from "./catalog-entry.js";
import { layout } from "./layout.js";
import { isName } from "./names.js";
import { tryParseReleaseId } from "./release-id.js";
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
