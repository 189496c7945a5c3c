import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { AppError } from "@mc/shared/errors";
import { toConnectError } from "@mc/shared/connect";
import {
  FeedFormat,
  NotesIndexEntrySchema,
  ReleaseSchema,
  ReleaseStatus,
  type Release,
  type ReleaseService,
} from "../../gen/releases/v1/releases_pb.js";
import type { CatalogEntry } from "../domain/catalog-entry.js";
import { documentKinds } from "../domain/catalog-entry.js";
import { renderJsonFeed, renderRss } from "../domain/feeds.js";
import { layout, urlOf } from "../domain/layout.js";
import { toReleaseRecord, type DownloadRecord } from "../domain/release-record.js";
import { latestRelease, newestFirst, queryReleases } from "../domain/release-query.js";
import type { Catalog, CatalogSnapshot } from "./catalog.js";
import type { CatalogEvents } from "./catalog-events.js";

/** The response header naming the catalog snapshot an answer was made from. */
export const catalogVersionHeader = "catalog-version";

export interface ReleaseServiceDeps {
  readonly catalog: Catalog;
  readonly base: string;
  readonly events: CatalogEvents;
}

const download = (d: DownloadRecord) => ({
  component: d.component,
  os: d.os,
  arch: d.arch,
  filename: d.filename,
  url: d.url,
  latestUrl: d.latestUrl,
  size: BigInt(d.size),
  sha256: d.sha256,
  checksumUrl: d.checksumUrl,
  signatureUrl: d.signatureUrl,
});

/** Maps the domain to the generated service; every error leaves as a ConnectError. */
export function createReleaseServiceImpl(deps: ReleaseServiceDeps): ServiceImpl<typeof ReleaseService> {
  const { catalog, base } = deps;

  async function toProto(entry: CatalogEntry, includeNotes: boolean): Promise<Release> {
    const r = toReleaseRecord(entry, base);
    const notes = includeNotes ? { markdown: await catalog.markdown(entry), ...(await catalog.notes(entry)) } : undefined;
    return create(ReleaseSchema, {
      product: r.product,
      component: r.component,
      releaseId: r.releaseId,
      releaseDate: r.releaseDate,
      releaseTime: r.releaseTime,
      status: r.status === "supported" ? ReleaseStatus.SUPPORTED : ReleaseStatus.WITHDRAWN,
      publicKeyUrl: r.publicKeyUrl,
      artifacts: { releaseNotes: r.artifacts.release_notes, sbomCyclonedx: r.artifacts.sbom_cyclonedx, sbomSpdx: r.artifacts.sbom_spdx, goModules: r.artifacts.go_modules },
      downloads: { linux: r.downloads.linux.map(download), macos: r.downloads.macos.map(download), windows: r.downloads.windows.map(download), docker: [] },
      ...(notes ? { notes } : {}),
    });
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
    const entry = snapshot.entries(product).find((e) => e.component === component && e.releaseId === releaseId);
    if (!entry) throw new AppError("not_found", `release '${releaseId}' of ${product}/${component} not found`);
    return entry;
  }

  const optional = (v: string): string | undefined => (v === "" ? undefined : v);

  return {
    listReleases: (req, ctx) =>
      guard(async () => {
        const entries = (await snapshotFor(ctx)).entries(req.product);
        const notesText = new Map<CatalogEntry, string>();
        if (req.query.trim() !== "") for (const e of entries) notesText.set(e, await catalog.markdown(e));
        const page = queryReleases(
          entries,
          {
            ...(optional(req.component) ? { component: req.component } : {}),
            ...(optional(req.os) ? { os: req.os } : {}),
            ...(optional(req.arch) ? { arch: req.arch } : {}),
            ...(req.limit !== undefined ? { limit: req.limit } : {}),
            ...(optional(req.after) ? { after: req.after } : {}),
            ...(optional(req.query) ? { query: req.query } : {}),
          },
          (e) => notesText.get(e) ?? "",
        );
        return { releases: await Promise.all(page.entries.map((e) => toProto(e, req.includeNotes))), nextAfter: page.nextAfter ?? "" };
      }),
    getLatestRelease: (req, ctx) =>
      guard(async () => {
        const filter = { ...(optional(req.component) ? { component: req.component } : {}), ...(optional(req.os) ? { os: req.os } : {}), ...(optional(req.arch) ? { arch: req.arch } : {}) };
        const entry = latestRelease((await snapshotFor(ctx)).entries(req.product), filter);
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
        const entries = newestFirst((await snapshotFor(ctx)).entries(req.product).filter((e) => e.component === req.component));
        if (entries.length === 0) throw new AppError("not_found", `component '${req.component}' of product '${req.product}' not found`);
        return {
          product: req.product,
          component: req.component,
          releases: entries.map((e) => {
            const r = toReleaseRecord(e, base);
            return create(NotesIndexEntrySchema, {
              releaseId: e.releaseId,
              releaseDate: e.releaseDate,
              releaseNotes: r.artifacts.release_notes,
              sbomCyclonedx: r.artifacts.sbom_cyclonedx,
              sbomSpdx: r.artifacts.sbom_spdx,
              goModules: r.artifacts.go_modules,
              files: documentKinds.map((k) => {
                const doc = e.documents.find((d) => d.kind === k);
                return { name: doc?.name ?? "", url: urlOf(base, layout.document(e.product, e.component, k, e.releaseId)), size: BigInt(doc?.size ?? 0), modified: e.releaseDate };
              }),
            });
          }),
        };
      }),
    listProducts: (_req, ctx) =>
      guard(async () => ({
        products: [...(await snapshotFor(ctx)).products].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, entries]) => ({
          name,
          components: [...new Set(entries.map((e) => e.component))].sort(),
          lastReleaseDate: entries.reduce((max, e) => (e.releaseDate > max ? e.releaseDate : max), ""),
        })),
      })),
    getFeed: (req, ctx) =>
      guard(async () => {
        const entries = newestFirst((await snapshotFor(ctx)).entries(req.product));
        const items = await catalog.feedItems(entries.slice(0, 50));
        const lastModified = entries.reduce((max, e) => (e.releaseDate > max ? e.releaseDate : max), "1970-01-01T00:00:00Z");
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
