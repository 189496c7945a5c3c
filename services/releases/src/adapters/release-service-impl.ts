import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { AppError } from "@mc/shared/errors";
import { toConnectError } from "@mc/shared/connect";
import { FeedFormat, ReleaseSchema, type Release, type ReleaseService } from "../../gen/releases/v1/releases_pb.js";
import type { CatalogEntry } from "../domain/catalog-entry.js";
import { documentKinds } from "../domain/catalog-entry.js";
import { renderJsonFeed, renderRss } from "../domain/feeds.js";
import { layout, urlOf } from "../domain/layout.js";
import { artifactUrls, toReleaseRecord } from "../domain/release-record.js";
import { latestInIndex, queryIndex } from "../domain/product-index.js";
import { queryReleases, type ReleaseFilter, type ReleasePage } from "../domain/release-query.js";
import type { Catalog, CatalogSnapshot } from "./catalog.js";
import type { CatalogEvents } from "./catalog-events.js";

/** The response header naming the catalog snapshot an answer was made from. */
export const catalogVersionHeader = "catalog-version";

export interface ReleaseServiceDeps {
  readonly catalog: Catalog;
  readonly base: string;
  readonly events: CatalogEvents;
}

/** The filters a request set (unset ones stay out: the domain checks every one that is there). */
function filterOf(req: { component?: string | undefined; os?: string | undefined; arch?: string | undefined; limit?: number | undefined; after?: string | undefined; query?: string }): ReleaseFilter {
  const filter: { -readonly [K in keyof ReleaseFilter]: ReleaseFilter[K] } = {};
  for (const name of ["component", "os", "arch", "after"] as const) {
    const value = req[name];
    if (value !== undefined) filter[name] = value;
  }
  if (req.limit !== undefined) filter.limit = req.limit;
  // The search is no REST filter: empty means none.
  if (req.query !== undefined && req.query !== "") filter.query = req.query;
  return filter;
}

/** Maps the domain to the generated service; every error leaves as a ConnectError. */
export function createReleaseServiceImpl(deps: ReleaseServiceDeps): ServiceImpl<typeof ReleaseService> {
  const { catalog, base } = deps;

  async function toProto(entry: CatalogEntry, includeNotes: boolean): Promise<Release> {
    const notes = includeNotes ? { markdown: await catalog.markdown(entry), ...(await catalog.notes(entry)) } : undefined;
    // The domain's record is the message's shape, taken as it is (create() refuses it the day they part).
    const record = toReleaseRecord(entry, base);
    return create(ReleaseSchema, notes ? { ...record, notes } : record);
  }

  async function guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw toConnectError(err);
    }
  }

  /**
   * The one snapshot a call answers from; its version goes back as the
   * `catalog-version` response header, so the gateway can tag (and never
   * mix) answers made from different catalogs.
   */
  async function snapshotFor(ctx: HandlerContext): Promise<CatalogSnapshot> {
    const snapshot = await catalog.snapshot();
    ctx.responseHeader.set(catalogVersionHeader, snapshot.version);
    return snapshot;
  }

  function find(snapshot: CatalogSnapshot, product: string, component: string, releaseId: string): CatalogEntry {
    const entry = snapshot.index(product).byKey.get(`${component}/${releaseId}`);
    if (!entry) throw new AppError("not_found", `release '${releaseId}' of ${product}/${component} not found`);
    return entry;
  }

  return {
    listReleases: (req, ctx) =>
      guard(async () => {
        const snapshot = await snapshotFor(ctx);
        const filter = filterOf(req);
        let page: ReleasePage;
        if (filter.query === undefined) {
          // No search: a page costs the page (the product's index is ordered once per catalog change).
          page = queryIndex(snapshot.index(req.product), filter);
        } else {
          // A search reads every release's notes: it is the one list that costs the catalog.
          const entries = snapshot.entries(req.product);
          const notesText = new Map<CatalogEntry, string>();
          for (const e of entries) notesText.set(e, await catalog.markdown(e));
          page = queryReleases(entries, filter, (e) => notesText.get(e) ?? "");
        }
        return { releases: await Promise.all(page.entries.map((e) => toProto(e, req.includeNotes))), nextAfter: page.nextAfter ?? "" };
      }),
    getLatestRelease: (req, ctx) =>
      guard(async () => {
        const entry = latestInIndex((await snapshotFor(ctx)).index(req.product), filterOf(req));
        if (!entry) throw new AppError("not_found", `product '${req.product}' has no supported release`);
        return { release: await toProto(entry, req.includeNotes) };
      }),
    getRelease: (req, ctx) => guard(async () => ({ release: await toProto(find(await snapshotFor(ctx), req.product, req.component, req.releaseId), req.includeNotes) })),
    getReleaseNotes: (req, ctx) =>
      guard(async () => {
        const entry = find(await snapshotFor(ctx), req.product, req.component, req.releaseId);
        return { notes: { markdown: await catalog.markdown(entry), ...(await catalog.notes(entry)) } };
      }),
    getNotesIndex: (req, ctx) =>
      guard(async () => {
        const entries = (await snapshotFor(ctx)).index(req.product).newest.filter((e) => e.component === req.component);
        if (entries.length === 0) throw new AppError("not_found", `component '${req.component}' of product '${req.product}' not found`);
        const files = (e: CatalogEntry) =>
          documentKinds.map((k) => {
            const doc = e.documents.find((d) => d.kind === k);
            return { name: doc?.name ?? "", url: urlOf(base, layout.document(e.product, e.component, k, e.releaseId)), size: BigInt(doc?.size ?? 0), modified: e.releaseDate };
          });
        return {
          product: req.product,
          component: req.component,
          releases: entries.map((e) => ({ releaseId: e.releaseId, releaseDate: e.releaseDate, ...artifactUrls(e, base) })),
          ...(req.includeListing ? { listing: { files: entries.flatMap(files) } } : {}),
        };
      }),
    listProducts: (_req, ctx) =>
      guard(async () => {
        const snapshot = await snapshotFor(ctx);
        return {
          products: [...snapshot.products.keys()].sort().map((name) => {
            const index = snapshot.index(name);
            return { name, components: [...index.components], lastReleaseDate: index.lastReleaseDate };
          }),
        };
      }),
    getFeed: (req, ctx) =>
      guard(async () => {
        const index = (await snapshotFor(ctx)).index(req.product);
        const items = await catalog.feedItems(index.newest.slice(0, 50));
        const lastModified = index.lastReleaseDate > "1970-01-01T00:00:00Z" ? index.lastReleaseDate : "1970-01-01T00:00:00Z";
        if (req.format === FeedFormat.RSS) {
          return { contentType: "application/rss+xml; charset=utf-8", body: renderRss(req.product, items, base, lastModified), lastModified };
        }
        return { contentType: "application/feed+json", body: renderJsonFeed(req.product, items, base), lastModified };
      }),
    async *watchCatalog(req, ctx) {
      for await (const event of deps.events.watch(ctx.signal)) {
        if (req.product === "" || event.product === req.product) yield { event };
      }
    },
  };
}
