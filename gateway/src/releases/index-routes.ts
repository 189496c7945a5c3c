import type { CallOptions } from "@connectrpc/connect";
import { AppError } from "@mc/shared";
import { archiveName, binaryName, isName, parsePlatform, urlOf, type Platform } from "@mc/releases";
import { ReleaseStatus, type Download, type Release } from "@mc/releases/gen/releases/v1/releases_pb.js";
import { answerGenerated, generated } from "../http/send-generated.js";
import type { RestRequest, RestResponse, RestRoute } from "../rest/rest-handler.js";
import type { ApiDeps } from "./api-routes.js";
import { catalogCall } from "./catalog-call.js";
import { directoryHtml, directoryJson, type Directory, type DirectoryEntry } from "./directory-page.js";
import { landingHtml, landingJson } from "./landing-page.js";
const notFound = (): AppError => new AppError("not_found", "file not found");
/** JSON only when asked for without HTML, as the notes index decides (contract §4). */
const wantsJson = (req: RestRequest): boolean => /application\/json/.test(req.headers.accept ?? "") && !/text\/html/.test(req.headers.accept ?? "");
const downloadsOf = (r: Release): Download[] => [...(r.downloads?.linux ?? []), ...(r.downloads?.macos ?? []), ...(r.downloads?.windows ?? [])];
const newest = (dates: readonly string[]): string | undefined => dates.reduce<string | undefined>((m, d) => (m === undefined || d > m ? d : m), undefined);
/** A checksum file is exactly `<64 hex> <archive name>\n` (contract §3), so its size is known. */
const checksumSize = (archive: string): number => 64 + 1 + archive.length + 1;

function names(req: RestRequest): { product: string; component: string } {
  const { product = "", component = "" } = req.params;
  if (!isName(product) || !isName(component)) throw notFound();
  return { product, component };
}

function platformOf(req: RestRequest): Platform & { folder: string } {
  const folder = req.params.platform ?? "";
  const platform = parsePlatform(folder);
  if (!platform) throw notFound();
  return { ...platform, folder };
}

/**
 * The browsable folders of the URL space (contract §3), as a download site
 * has them: `/`, `/<p>/`, `/<p>/<c>/`, `/<p>/<c>/release/`, each platform and
 * its `archive/`. HTML, or JSON on request. Each is made from one
 * ReleaseService call, so from one catalog snapshot, and is tagged with its
 * `catalog-version` like the API's answers: cached with them, dropped with
 * them, and never older than what the gateway already serves.
 */
export function createIndexRoutes(deps: ApiDeps): RestRoute[] {
  const { client, cache, base } = deps;

  async function index(req: RestRequest, make: (options: CallOptions) => Promise<Directory>): Promise<RestResponse> {
    const json = wantsJson(req);
    const answer = await cache.get(`index:${req.path}:${json ? "json" : "html"}`, async () => {
      const call = catalogCall(req);
      const dir = await make(call.options);
      const last = newest(dir.entries.flatMap((e) => (e.modified ? [e.modified] : [])));
      const modified = last === undefined ? undefined : new Date(last);
      return call.tag(json ? generated(JSON.stringify(directoryJson(dir, base)), "application/json; charset=utf-8", modified) : generated(directoryHtml(dir), "text/html; charset=utf-8", modified));
    });
    return answerGenerated(req, cache, answer, deps.now(), "Accept, Accept-Encoding");
  }

  async function productOf(name: string, options: CallOptions) {
    const { products } = await client.listProducts({}, options);
    const product = products.find((p) => p.name === name);
    if (!product) throw new AppError("not_found", `product '${name}' not found`);
    return product;
  }

  async function releasesOf(req: RestRequest, options: CallOptions, filter: { os?: string; arch?: string } = {}): Promise<{ product: string; component: string; releases: Release[] }> {
    const { product, component } = names(req);
    const { releases } = await client.listReleases({ product, component, ...filter }, options);
    if (releases.length === 0) throw notFound();
    return { product, component, releases };
  }

  const redirect = (to: (req: RestRequest) => string) => (req: RestRequest): RestResponse => {
    names(req);
    // Location is built only from names the grammar allows (no CR/LF or spaces reach a header).
    return { status: 301, headers: { location: urlOf(base, to(req)) } };
  };

  return [
    {
      methods: ["GET"],
      pattern: "/",
      async handle(req) {
        const json = wantsJson(req);
        const answer = await cache.get(`landing:${json ? "json" : "html"}`, async () => {
          const call = catalogCall(req);
          const { products } = await client.listProducts({}, call.options);
          const last = newest(products.map((p) => p.lastReleaseDate).filter(Boolean));
          const modified = last === undefined ? undefined : new Date(last);
          return call.tag(json ? generated(JSON.stringify(landingJson(products, base)), "application/json; charset=utf-8", modified) : generated(landingHtml(products), "text/html; charset=utf-8", modified));
        });
        return answerGenerated(req, cache, answer, deps.now(), "Accept, Accept-Encoding");
      },
    },
    {
      methods: ["GET"],
      pattern: "/:product/",
      handle: (req) =>
        index(req, async (options) => {
          const p = await productOf(req.params.product ?? "", options);
          const entries: DirectoryEntry[] = [...p.components.map((c) => ({ name: `${c}/` })), { name: "releases", modified: p.lastReleaseDate }];
          return { path: `/${p.name}/`, product: p.name, entries };
        }),
    },
    {
      methods: ["GET"],
      pattern: "/:product/:component/",
      handle: (req) =>
        index(req, async (options) => {
          const { product, component } = names(req);
          if (!(await productOf(product, options)).components.includes(component)) throw notFound();
          return { path: `/${product}/${component}/`, product, entries: [{ name: "release/" }] };
        }),
    },
    {
      methods: ["GET"],
      pattern: "/:product/:component/release/",
      handle: (req) =>
        index(req, async (options) => {
          const { product, component, releases } = await releasesOf(req, options);
          const platforms = new Map<string, string>();
          for (const r of releases) for (const d of downloadsOf(r)) platforms.set(`${d.os}-${d.arch}/`, newest([platforms.get(`${d.os}-${d.arch}/`) ?? "", r.releaseDate]) ?? "");
          const entries = [{ name: "notes/", modified: newest(releases.map((r) => r.releaseDate)) ?? "" }, ...[...platforms].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, modified]) => ({ name, modified }))];
          return { path: `/${product}/${component}/release/`, product, entries, note: `Release notes of every version: <a href="../../releases">${product} releases</a>` };
        }),
    },
    {
      methods: ["GET"],
      pattern: "/:product/:component/release/:platform/",
      handle: (req) =>
        index(req, async (options) => {
          const { os, arch, folder } = platformOf(req);
          const { product, component, releases } = await releasesOf(req, options, { os, arch });
          // The aliases serve the catalog's latest for this platform (the API's answer): the newest
          // supported release of this one listing (newest first), so the page is one snapshot.
          const latest = releases.find((r) => r.status === ReleaseStatus.SUPPORTED);
          const d = latest ? downloadsOf(latest)[0] : undefined;
          if (!latest || !d) throw notFound();
          const bin = binaryName(component, os);
          const at = latest.releaseDate;
          const entries: DirectoryEntry[] = [
            { name: "archive/", modified: newest(releases.map((r) => r.releaseDate)) ?? at },
            { name: bin, size: Number(d.size), modified: at },
            { name: `${bin}.minisig`, modified: at },
            { name: `${bin}.sha256sum`, size: checksumSize(archiveName(component, latest.releaseId)), modified: at },
          ];
          return { path: `/${product}/${component}/release/${folder}/`, product, entries, note: `${bin} is ${latest.releaseId}, the latest release; every release is in archive/.` };
        }),
    },
    {
      methods: ["GET"],
      pattern: "/:product/:component/release/:platform/archive/",
      handle: (req) =>
        index(req, async (options) => {
          const { os, arch, folder } = platformOf(req);
          const { product, component, releases } = await releasesOf(req, options, { os, arch });
          const entries = releases.flatMap((r): DirectoryEntry[] => {
            const name = archiveName(component, r.releaseId);
            const size = downloadsOf(r)[0]?.size;
            return [
              { name, ...(size === undefined ? {} : { size: Number(size) }), modified: r.releaseDate },
              { name: `${name}.minisig`, modified: r.releaseDate },
              { name: `${name}.sha256sum`, size: checksumSize(name), modified: r.releaseDate },
            ];
          });
          return { path: `/${product}/${component}/release/${folder}/archive/`, product, entries };
        }),
    },
    { methods: ["GET"], pattern: "/:product/:component/release", handle: redirect((r) => `${r.params.product}/${r.params.component}/release/`) },
    { methods: ["GET"], pattern: "/:product/:component/release/:platform", handle: redirect((r) => `${r.params.product}/${r.params.component}/release/${platformOf(r).folder}/`) },
    { methods: ["GET"], pattern: "/:product/:component/release/:platform/archive", handle: redirect((r) => `${r.params.product}/${r.params.component}/release/${platformOf(r).folder}/archive/`) },
  ];
}
