import type { Client } from "@connectrpc/connect";
import { AppError } from "@mc/shared/errors";
import { isName, layout, tryParseReleaseId, urlOf } from "@mc/releases";
import { FeedFormat, type ReleaseService } from "@mc/releases/gen/releases/v1/releases_pb.js";
import { answerGenerated, generated } from "../http/send-generated.js";
import type { ResponseCache } from "../http/response-cache.js";
import type { RestRequest, RestResponse, RestRoute } from "@mc/shared/rest";
import { catalogCall } from "./catalog-call.js";
import { notesIndexHtml, notesIndexJson } from "./notes-index-page.js";
import { releaseRecordJson } from "./release-json.js";
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

function badParam(name: string): AppError {
  return new AppError("invalid_argument", `invalid query parameter '${name}'`);
}

function checkProduct(product: string | undefined): string {
  if (product === undefined || !isName(product)) throw new AppError("not_found", `product '${product ?? ""}' not found`);
  return product;
}

interface ListQuery {
  component?: string;
  os?: string;
  arch?: string;
  limit?: number;
  after?: string;
}

/** The list route's query, checked as the contract words its 400s. */
function listQuery(query: URLSearchParams, withPaging: boolean): ListQuery {
  const out: ListQuery = {};
  for (const name of ["component", "os", "arch"] as const) {
    const v = query.get(name);
    if (v !== null) {
      if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(v)) throw badParam(name);
      out[name] = v;
    }
  }
  if (!withPaging) return out;
  const limit = query.get("limit");
  if (limit !== null) {
    if (!/^\d{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > 100) throw badParam("limit");
    out.limit = Number(limit);
  }
  const after = query.get("after");
  if (after !== null) {
    if (!tryParseReleaseId(after)) throw badParam("after");
    out.after = after;
  }
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
        const product = checkProduct(req.params.product);
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
          return call.tag(generated(JSON.stringify(res.releases.map(releaseRecordJson)), jsonType, lastModifiedOf(res.releases.map((r) => r.releaseDate)), headers));
        });
      },
    },
    {
      methods: ["GET"],
      pattern: "/api/releases/:product/latest",
      handle(req) {
        const product = checkProduct(req.params.product);
        const q = listQuery(req.query, false);
        return cached(req, `latest:${product}:${canonical(q)}`, async () => {
          const call = catalogCall(req);
          const res = await client.getLatestRelease({ product, ...q }, call.options);
          const release = res.release;
          if (!release) throw new AppError("not_found", `product '${product}' has no supported release`);
          return call.tag(generated(JSON.stringify([releaseRecordJson(release)]), jsonType, new Date(release.releaseDate), cors));
        });
      },
    },
    {
      methods: ["GET"],
      pattern: "/api/feeds/:file",
      handle(req) {
        const m = /^(.+)\.json$/.exec(req.params.file ?? "");
        const product = checkProduct(m?.[1]);
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
        const product = checkProduct(req.params.product);
        const component = req.params.component ?? "";
        if (!isName(component)) throw new AppError("not_found", "file not found");
        const wantsJson = /application\/json/.test(req.headers.accept ?? "") && !/text\/html/.test(req.headers.accept ?? "");
        return cached(
          req,
          `notes:${product}:${component}:${wantsJson ? "json" : "html"}`,
          async () => {
            const call = catalogCall(req);
            const index = await client.getNotesIndex({ product, component }, call.options);
            const last = lastModifiedOf(index.releases.map((r) => r.releaseDate));
            return call.tag(wantsJson ? generated(JSON.stringify(notesIndexJson(index)), jsonType, last) : generated(notesIndexHtml(index), "text/html; charset=utf-8", last));
          },
          "Accept, Accept-Encoding",
        );
      },
    },
    {
      methods: ["GET"],
      pattern: "/:product/releases",
      async handle(req) {
        const product = checkProduct(req.params.product);
        const answer = await cached(req, `page:${product}`, async () => {
          const call = catalogCall(req);
          const res = await client.listReleases({ product, includeNotes: true }, call.options);
          const html = renderReleasesPage(product, res.releases, urlOf(base, layout.publicKey()));
          return call.tag(generated(html, "text/html; charset=utf-8", lastModifiedOf(res.releases.map((r) => r.releaseDate)), { "content-security-policy": pageCsp }));
        });
        return answer;
      },
    },
    {
      methods: ["GET"],
      pattern: "/:product/:component/release/notes",
      handle(req) {
        const product = checkProduct(req.params.product);
        // Location is built only from names the grammar allows (no CR/LF, spaces or non-ASCII can reach a header).
        const component = req.params.component ?? "";
        if (!isName(component)) throw new AppError("not_found", "file not found");
        return { status: 301, headers: { location: urlOf(base, `${product}/${component}/release/notes/`) } };
      },
    },
  ];
}

/** `/feed-<product>.rss`, served from the root-level route. */
export async function rssFeed(req: RestRequest, product: string, deps: ApiDeps): Promise<RestResponse> {
  checkProduct(product);
  const cachedFeed = await deps.cache.get(`rss:${product}`, async () => {
    const call = catalogCall(req);
    const feed = await deps.client.getFeed({ product, format: FeedFormat.RSS }, call.options);
    return call.tag(generated(feed.body, feed.contentType, new Date(feed.lastModified), cors));
  });
  return answerGenerated(req, deps.cache, cachedFeed, deps.now());
}
