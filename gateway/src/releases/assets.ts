import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { AppError } from "@mc/shared/errors";
import { answerGenerated, generated } from "../http/send-generated.js";
import { createResponseCache } from "../http/response-cache.js";
import type { RestRoute } from "@mc/shared/rest";

const entries: Readonly<Record<string, string>> = {
  "releases-page.js": fileURLToPath(new URL("../../web/releases-page.ts", import.meta.url)),
};

/** Bundles one browser entry point with esbuild: small, minified, no framework. */
export async function bundle(name: string): Promise<string> {
  const entry = entries[name];
  if (!entry) throw new AppError("not_found", "not found");
  const out = await build({ entryPoints: [entry], bundle: true, minify: true, format: "esm", platform: "browser", target: "es2022", write: false, legalComments: "none" });
  return out.outputFiles[0]?.text ?? "";
}

/**
 * `/_assets/<name>`: the page scripts, bundled on first request and kept for
 * the life of the process (publishing does not change them).
 */
export function createAssetRoute(now: () => number): RestRoute {
  const cache = createResponseCache({ ttlMs: Number.POSITIVE_INFINITY, now });
  return {
    methods: ["GET"],
    pattern: "/_assets/:name",
    async handle(req) {
      const name = req.params.name ?? "";
      if (!entries[name]) throw new AppError("not_found", "not found");
      const asset = await cache.get(name, async () => generated(await bundle(name), "text/javascript; charset=utf-8", undefined));
      return answerGenerated(req, cache, asset, now());
    },
  };
}
