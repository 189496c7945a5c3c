import type { CallOptions, Client, HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { requestIdHeader, requestIdOptions } from "@mc/shared/node";
import type { ReleaseService } from "@mc/releases/gen/releases/v1/releases_pb.js";

/** The caller's cancellation and the request id the gateway gave the request. */
const onward = (ctx: HandlerContext): CallOptions => ({ signal: ctx.signal, ...requestIdOptions(ctx.requestHeader.get(requestIdHeader)) });

/**
 * ReleaseService for browsers (Connect-Web) on the gateway's own origin: each
 * call goes on to the release service over the bus, keeping the caller's
 * deadline, cancellation and request id.
 */
export function createReleaseProxy(client: Client<typeof ReleaseService>): ServiceImpl<typeof ReleaseService> {
  return {
    listReleases: (req, ctx) => client.listReleases(req, onward(ctx)),
    getLatestRelease: (req, ctx) => client.getLatestRelease(req, onward(ctx)),
    getRelease: (req, ctx) => client.getRelease(req, onward(ctx)),
    getReleaseNotes: (req, ctx) => client.getReleaseNotes(req, onward(ctx)),
    getNotesIndex: (req, ctx) => client.getNotesIndex(req, onward(ctx)),
    listProducts: (req, ctx) => client.listProducts(req, onward(ctx)),
    getFeed: (req, ctx) => client.getFeed(req, onward(ctx)),
    watchCatalog: (req, ctx) => client.watchCatalog(req, onward(ctx)),
  };
}
