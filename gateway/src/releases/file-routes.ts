import { AppError } from "@mc/shared/errors";
import { fromConnectError } from "@mc/shared/connect";
import { catalogVersionHeader, tryParseReleaseId, type ReleaseStore } from "@mc/releases";
import { generated } from "../http/send-generated.js";
import type { RestRequest, RestResponse, RestRoute } from "@mc/shared/rest";
import { rssFeed, type ApiDeps } from "./api-routes.js";
import { aliasTarget, artifactOf, publicKeyArtifact, type Artifact, type LatestAlias } from "./artifact-path.js";
import { catalogCall } from "./catalog-call.js";
import { createEtagSource, serveArtifact } from "./serve-artifact.js";

/**
 * The release a latest alias stands for, as the catalog answers it: cached
 * beside the API's answers and tagged with the same catalog version, so an
 * alias and `/api/releases/<p>/latest` always come from one catalog.
 */
async function resolveLatest(req: RestRequest, of: LatestAlias, api: ApiDeps): Promise<{ releaseId: string; version: string | undefined }> {
  const answer = await api.cache.get(`alias:${of.product}/${of.component}/${of.os}-${of.arch}`, async () => {
    const call = catalogCall(req);
    try {
      const res = await api.client.getLatestRelease({ product: of.product, component: of.component, os: of.os, arch: of.arch }, call.options);
      return call.tag(generated(res.release?.releaseId ?? "", "text/plain", undefined));
    } catch (err) {
      // No such product or no release for this platform: the file does not exist.
      if (fromConnectError(err).reason === "not_found") return call.tag({ ...generated("", "text/plain", undefined), status: 404 });
      throw err;
    }
  });
  const releaseId = answer.body.toString();
  if (answer.status !== 200 || !tryParseReleaseId(releaseId)) throw new AppError("not_found", "file not found");
  return { releaseId, version: answer.catalogVersion };
}

async function serveLatest(req: RestRequest, alias: Artifact, of: LatestAlias, store: ReleaseStore, api: ApiDeps, etagOf: ReturnType<typeof createEtagSource>): Promise<RestResponse> {
  const { releaseId, version } = await resolveLatest(req, of, api);
  // The archive files are written before the catalog record, so they are there.
  const res = await serveArtifact(req, aliasTarget(alias, of, releaseId), store, etagOf);
  return version === undefined ? res : { ...res, headers: { ...res.headers, [catalogVersionHeader]: version } };
}

/** Artifact routes: bytes stream from the store, never over the bus. */
export function createFileRoutes(store: ReleaseStore, api: ApiDeps): RestRoute[] {
  const etagOf = createEtagSource(store);
  return [
    {
      methods: ["GET"],
      pattern: "/:name",
      handle(req) {
        const name = req.params.name ?? "";
        if (name === "minisign.pub") return serveArtifact(req, publicKeyArtifact, store, etagOf);
        const rss = /^feed-(.+)\.rss$/.exec(name);
        if (rss?.[1]) return rssFeed(req, rss[1], api);
        throw new AppError("not_found", "not found");
      },
    },
    {
      methods: ["GET"],
      pattern: "/:product/:component/release/:platform/*rest",
      handle(req) {
        const { product = "", component = "", platform = "", rest = "" } = req.params;
        const artifact = artifactOf(product, component, platform, rest.split("/"));
        if (!artifact) throw new AppError("not_found", "file not found");
        if (artifact.latestOf) return serveLatest(req, artifact, artifact.latestOf, store, api, etagOf);
        return serveArtifact(req, artifact, store, etagOf);
      },
    },
  ];
}
