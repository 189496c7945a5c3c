import { AppError } from "@mc/shared";
import type { CatalogEntry } from "../domain/catalog-entry.js";
import { readCatalog } from "../domain/catalog-reader.js";
import type { FeedItem } from "../domain/feeds.js";
import { layout } from "../domain/layout.js";
import { renderNotes, type RenderedNotes } from "../domain/notes-render.js";
import type { ReleaseStore } from "../domain/release-store.js";

export interface Catalog {
  /** Entries of a product; throws not_found for an unknown product. */
  entries(product: string): readonly CatalogEntry[];
  products(): ReadonlyMap<string, readonly CatalogEntry[]>;
  markdown(entry: CatalogEntry): Promise<string>;
  notes(entry: CatalogEntry): Promise<RenderedNotes>;
  feedItems(entries: readonly CatalogEntry[]): Promise<FeedItem[]>;
  /** Re-reads the store (after a publish anywhere in the deployment). */
  reload(): Promise<void>;
}

const key = (e: CatalogEntry): string => `${e.product}/${e.component}/${e.releaseId}`;

/**
 * The catalog in memory, read from the store at start and on every catalog
 * event. Notes are immutable per release, so their text and rendering are
 * kept once read.
 */
export async function createCatalog(store: ReleaseStore): Promise<Catalog> {
  let byProduct = await readCatalog(store);
  const markdownCache = new Map<string, Promise<string>>();
  const renderCache = new Map<string, Promise<RenderedNotes>>();
  let reloading: Promise<void> | undefined;

  function markdown(entry: CatalogEntry): Promise<string> {
    const k = key(entry);
    let cached = markdownCache.get(k);
    if (!cached) {
      cached = store.read(layout.document(entry.product, entry.component, "release_notes", entry.releaseId)).then((b) => (b ? new TextDecoder().decode(b) : ""));
      markdownCache.set(k, cached);
    }
    return cached;
  }

  function notes(entry: CatalogEntry): Promise<RenderedNotes> {
    const k = key(entry);
    let cached = renderCache.get(k);
    if (!cached) {
      cached = markdown(entry).then(renderNotes);
      renderCache.set(k, cached);
    }
    return cached;
  }

  return {
    entries(product) {
      const found = byProduct.get(product);
      if (!found) throw new AppError("not_found", `product '${product}' not found`);
      return found;
    },
    products: () => byProduct,
    markdown,
    notes,
    feedItems: (entries) => Promise.all(entries.map(async (entry) => ({ entry, markdown: await markdown(entry), notes: await notes(entry) }))),
    reload() {
      // Concurrent events coalesce into one read of the store.
      reloading ??= readCatalog(store)
        .then((fresh) => {
          byProduct = fresh;
        })
        .finally(() => {
          reloading = undefined;
        });
      return reloading;
    },
  };
}
