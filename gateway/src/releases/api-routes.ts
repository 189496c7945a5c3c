import type { Client } from "@connectrpc/connect";
import { AppError } from "@mc/shared/errors";
import { layout, urlOf } from "@mc/releases";
import { FeedFormat, GetNotesIndexResponseSchema, ReleaseSchema, type ReleaseService } from "@mc/releases/gen/releases/v1/releases_pb.js";
import { answerGenerated, generated } from "../http/send-generated.js";
import type { ResponseCache } from "../http/response-cache.js";
import type { RestRequest, RestResponse, RestRoute } from "@mc/shared/rest";
import { catalogCall } from "./catalog-call.js";
import { contractJson } from "./contract-json.js";
import { notesIndexHtml } from "./notes-index-page.js";
import { renderReleasesPage } from "./releases-page.js";

// Defence in depth behind the sanitiser: no inline or foreign script can run.
const pageCsp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export interface ApiDeps {
  readonly client: Client<typeof ReleaseService>;
  readonly cache: ResponseCache;
  readonly base: string;
  readonly now: () => number;
}

const jsonType = "application/json; charset=utf-8";
const cors = { "access-control-allow-origin": "*" };

interface ListQuery {
  component?: string;
  os?: string;
  arch?: string;
  limit?: number;
  after?: string;
}

/**
 * The REST query as the request's filters, as it comes: the release service
 * checks them and words the 400s (contracts/releases.md §5), here nothing
 * does. `limit` is a uint32 in the request: text that is no decimal of at
 * most 3 digits (1..100 has no longer spelling the API takes) becomes 0,
 * which the service refuses like any limit out of 1..100.
 */
function listQuery(query: URLSearchParams, withPaging: boolean): ListQuery {
  const out: ListQuery = {};
  for (const name of ["component", "os", "arch"] as const) {
    const v = query.get(name);
    if (v !== null) out[name] = v;
  }
  if (!withPaging) return out;
  const limit = query.get("limit");
  if (limit !== null) out.limit = /^\d{1,3}$/.test(limit) ? Number(limit) : 0;
  const after = query.get("after");
  if (after !== null) out.after = after;
  return out;
}

const canonical = (q: ListQuery): string => JSON.stringify([q.component, q.os, q.arch, q.limit, q.after]);

const lastModifiedOf = (dates: readonly string[]): Date | undefined => {
  const max = dates.reduce((m, d) => (d > m ? d : m), "");
  return max === "" ? undefined : new Date(max);
};

export function createApiRoutes(deps: ApiDeps): RestRoute[] {
  const { client, cache, base } = deps;

  async function cached(req: RestRequest, key: string, make: Parameters<ResponseCache["get"]>[1], vary?: string): Promise<RestResponse> {
    return answerGenerated(req, cache, await cache.get(key, make), deps.now(), vary);
  }

  return [
    {
      methods: ["GET"],
      pattern: "/api/releases/:product",
      handle(req) {
        const product = req.params.product ?? "";
        const q = listQuery(req.query, true);
        return cached(req, `list:${product}:${canonical(q)}`, async () => {
          const call = catalogCall(req);
          const res = await client.listReleases({ product, ...q }, call.options);
          const headers: Record<string, string> = { ...cors };
          if (res.nextAfter !== "") {
            const next = new URLSearchParams();
            for (const [k, v] of Object.entries(q)) if (k !== "after" && v !== undefined) next.set(k, String(v));
            next.set("after", res.nextAfter);
            headers.link = `<${urlOf(base, layout.apiList(product))}?${next.toString()}>; rel="next"`;
          }
          return call.tag(generated(JSON.stringify(res.releases.map((r) => contractJson(ReleaseSchema, r))), jsonType, lastModifiedOf(res.releases.map((r) => r.releaseDate)), headers));
        });
      },
    },
    {
      methods: ["GET"],
      pattern: "/api/releases/:product/latest",
      handle(req) {
        const product = req.params.product ?? "";
        const q = listQuery(req.query, false);
        return cached(req, `latest:${product}:${canonical(q)}`, async () => {
          const call = catalogCall(req);
          const res = await client.getLatestRelease({ product, ...q }, call.options);
          const release = res.release;
          if (!release) throw new AppError("not_found", `product '${product}' has no supported release`);
          return call.tag(generated(JSON.stringify([contractJson(ReleaseSchema, release)]), jsonType, new Date(release.releaseDate), cors));
        });
      },
    },
    {
      methods: ["GET"],
      pattern: "/api/feeds/:file",
      handle(req) {
        // A file that is no `<product>.json` asks for product '', which the service does not know.
        const product = /^(.+)\.json$/.exec(req.params.file ?? "")?.[1] ?? "";
        return cached(req, `jsonfeed:${product}`, async () => {
          const call = catalogCall(req);
          const feed = await client.getFeed({ product, format: FeedFormat.JSON_FEED }, call.options);
          return call.tag(generated(feed.body, feed.contentType, new Date(feed.lastModified), cors));
        });
      },
    },
    {
      methods: ["GET"],
      pattern: "/:product/:component/release/notes/",
      handle(req) {
        const product = req.params.product ?? "";
        const component = req.params.component ?? "";
        const wantsJson = /application\/json/.test(req.headers.accept ?? "") && !/text\/html/.test(req.headers.accept ?? "");
        return cached(
          req,
          `notes:${product}:${component}:${wantsJson ? "json" : "html"}`,
          async () => {
            const call = catalogCall(req);
            // The JSON form is the index's proto JSON, so the HTML listing's files are asked for only for HTML.
            const index = await client.getNotesIndex({ product, component, includeListing: !wantsJson }, call.options);
            const last = lastModifiedOf(index.releases.map((r) => r.releaseDate));
            return call.tag(wantsJson ? generated(JSON.stringify(contractJson(GetNotesIndexResponseSchema, index)), jsonType, last) : generated(notesIndexHtml(index), "text/html; charset=utf-8", last));
          },
          "Accept, Accept-Encoding",
        );
      },
    },
    {
      methods: ["GET"],
      pattern: "/:product/releases",
      async handle(req) {
        const product = req.params.product ?? "";
        const answer = await cached(req, `page:${product}`, async () => {
          const call = catalogCall(req);
          const res = await client.listReleases({ product, includeNotes: true }, call.options);
          const html = renderReleasesPage(product, res.releases, urlOf(base, layout.publicKey()));
          return call.tag(generated(html, "text/html; charset=utf-8", lastModifiedOf(res.releases.map((r) => r.releaseDate)), { "content-security-policy": pageCsp }));
        });
        return answer;
      },
    },
  ];
}

/** `/feed-<product>.rss`, served from the root-level route. */
export async function rssFeed(req: RestRequest, product: string, deps: ApiDeps): Promise<RestResponse> {
  const cachedFeed = await deps.cache.get(`rss:${product}`, async () => {
    const call = catalogCall(req);
    const feed = await deps.client.getFeed({ product, format: FeedFormat.RSS }, call.options);
    return call.tag(generated(feed.body, feed.contentType, new Date(feed.lastModified), cors));
  });
  return answerGenerated(req, deps.cache, cachedFeed, deps.now());
}
