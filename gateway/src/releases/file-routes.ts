import { AppError } from "@mc/shared";
import type { ReleaseStore } from "@mc/releases";
import type { RestRoute } from "../rest/rest-handler.js";
import { rssFeed, type ApiDeps } from "./api-routes.js";
import { artifactOf, publicKeyArtifact } from "./artifact-path.js";
import { createEtagSource, serveArtifact } from "./serve-artifact.js";

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
        return serveArtifact(req, artifact, store, etagOf);
      },
    },
  ];
}
