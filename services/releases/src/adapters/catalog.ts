import { AppError } from "@mc/shared/errors";
import type { CatalogEntry } from "../domain/catalog-entry.js";
import { readCatalogEntry } from "../domain/catalog-reader.js";
import type { FeedItem } from "../domain/feeds.js";
import { layout } from "../domain/layout.js";
import { isName } from "../domain/names.js";
import { renderNotes, type RenderedNotes } from "../domain/notes-render.js";
import { catalogVersionOf } from "../domain/catalog-version.js";
import { tryParseReleaseId } from "../domain/release-id.js";
import type { ReleaseStore } from "../domain/release-store.js";
import { indexProduct, type ProductIndex } from "../domain/product-index.js";

/** One reading of the catalog: every answer of one call is made from one snapshot. */
export interface CatalogSnapshot {
  /** `catalog-version` of this snapshot (domain/catalog-version.ts). */
  readonly version: string;
  readonly products: ReadonlyMap<string, readonly CatalogEntry[]>;
  /** Entries of a product; throws not_found for an unknown product. */
  entries(product: string): readonly CatalogEntry[];
  /** The product's ordered index (built once per snapshot); throws not_found for an unknown product. */
  index(product: string): ProductIndex;
}

export interface Catalog {
  /** The catalog as the store has it now. */
  snapshot(): Promise<CatalogSnapshot>;
  /** The same, read from the listing whatever the head says (the watcher's periodic check). */
  relist(): Promise<CatalogSnapshot>;
  markdown(entry: CatalogEntry): Promise<string>;
  notes(entry: CatalogEntry): Promise<RenderedNotes>;
  feedItems(entries: readonly CatalogEntry[]): Promise<FeedItem[]>;
}

const key = (product: string, component: string, releaseId: string): string => `${product}/${component}/${releaseId}`;

/**
 * The catalog as the store has it at each call. A release's record is
 * written once and never changes, so records are read once and kept. Each
 * call reads the catalog's head (`_catalog/_head`, rewritten by every
 * publish right before its record, which names it): while it reads the
 * same, the last snapshot and its per-product indexes answer, so a call
 * costs one small read however large the catalog is (issue 26); when it
 * moved, the listing is read again (concurrent calls share one listing),
 * and again at every call until the record the head names is in it. A
 * publish is therefore visible to the very next call, whichever instance
 * answers it and whenever its event arrives. Two publishes racing can leave
 * the head naming the later one while the earlier record lands after the
 * listing: `relist()` (the watcher's periodic full reading) repairs that.
 * A store without a head (written before it existed, or by hand) is listed
 * on every call, as before.
 */
export function createCatalog(store: ReleaseStore): Catalog {
  const records = new Map<string, Promise<CatalogEntry | undefined>>();
  const markdownCache = new Map<string, Promise<string>>();
  const renderCache = new Map<string, Promise<RenderedNotes>>();
  let listing: Promise<CatalogSnapshot> | undefined;
  let current: { readonly head: string; readonly snapshot: CatalogSnapshot } | undefined;

  function record(product: string, component: string, releaseId: string): Promise<CatalogEntry | undefined> {
    const k = key(product, component, releaseId);
    let found = records.get(k);
    if (!found) {
      found = readCatalogEntry(store, product, component, releaseId);
      records.set(k, found);
      found.catch(() => records.delete(k));
    }
    return found;
  }

  async function load(): Promise<Map<string, CatalogEntry[]>> {
    const out = new Map<string, CatalogEntry[]>();
    for (const product of (await store.list("_catalog")).filter(isName)) {
      const entries: CatalogEntry[] = [];
      for (const component of (await store.list(`_catalog/${product}`)).filter(isName)) {
        const ids = (await store.list(layout.catalogDir(product, component)))
          .filter((n) => n.endsWith(".json"))
          .map((n) => n.slice(0, -".json".length))
          .filter((id) => tryParseReleaseId(id) !== undefined);
        for (const e of await Promise.all(ids.map((id) => record(product, component, id)))) if (e) entries.push(e);
      }
      out.set(product, entries);
    }
    return out;
  }

  async function read(): Promise<CatalogSnapshot> {
    const headBytes = await store.read(layout.catalogHead());
    const head = headBytes === undefined ? undefined : new TextDecoder().decode(headBytes);
    if (head !== undefined && current?.head === head) return current.snapshot;
    const products = await load();
    const indexes = new Map<string, ProductIndex>();
    const known = (product: string): readonly CatalogEntry[] => {
      const found = products.get(product);
      if (!found) throw new AppError("not_found", `product '${product}' not found`);
      return found;
    };
    const snapshot: CatalogSnapshot = {
      version: catalogVersionOf([...products.values()].flat()),
      products,
      entries: known,
      index(product) {
        let found = indexes.get(product);
        if (!found) {
          found = indexProduct(known(product));
          indexes.set(product, found);
        }
        return found;
      },
    };
    // The head is written right before its record: keep relisting until the record it names is in.
    const [, named = ""] = head?.split(" ") ?? [];
    const [p = "", c = "", id = ""] = named.split("/");
    if (head !== undefined && products.get(p)?.some((e) => e.component === c && e.releaseId === id)) current = { head, snapshot };
    return snapshot;
  }

  function snapshot(): Promise<CatalogSnapshot> {
    listing ??= read().finally(() => {
      listing = undefined;
    });
    return listing;
  }

  function markdown(entry: CatalogEntry): Promise<string> {
    const k = key(entry.product, entry.component, entry.releaseId);
    let cached = markdownCache.get(k);
    if (!cached) {
      cached = store.read(layout.document(entry.product, entry.component, "release_notes", entry.releaseId)).then((b) => (b ? new TextDecoder().decode(b) : ""));
      markdownCache.set(k, cached);
    }
    return cached;
  }

  function notes(entry: CatalogEntry): Promise<RenderedNotes> {
    const k = key(entry.product, entry.component, entry.releaseId);
    let cached = renderCache.get(k);
    if (!cached) {
      cached = markdown(entry).then(renderNotes);
      renderCache.set(k, cached);
    }
    return cached;
  }

  return {
    snapshot,
    relist() {
      current = undefined;
      return snapshot();
    },
    markdown,
    notes,
    feedItems: (entries) => Promise.all(entries.map(async (entry) => ({ entry, markdown: await markdown(entry), notes: await notes(entry) }))),
  };
}
