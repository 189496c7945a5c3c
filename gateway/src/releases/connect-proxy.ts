import type { Client, ServiceImpl } from "@connectrpc/connect";
import type { ReleaseService } from "@mc/releases/gen/releases/v1/releases_pb.js";

/**
 * ReleaseService for browsers (Connect-Web) on the gateway's own origin: each
 * call goes on to the release service over the bus, keeping the caller's
 * deadline and cancellation.
 */
export function createReleaseProxy(client: Client<typeof ReleaseService>): ServiceImpl<typeof ReleaseService> {
  return {
    listReleases: (req, ctx) => client.listReleases(req, { signal: ctx.signal }),
    getLatestRelease: (req, ctx) => client.getLatestRelease(req, { signal: ctx.signal }),
    getRelease: (req, ctx) => client.getRelease(req, { signal: ctx.signal }),
    getReleaseNotes: (req, ctx) => client.getReleaseNotes(req, { signal: ctx.signal }),
    getNotesIndex: (req, ctx) => client.getNotesIndex(req, { signal: ctx.signal }),
    listProducts: (req, ctx) => client.listProducts(req, { signal: ctx.signal }),
    getFeed: (req, ctx) => client.getFeed(req, { signal: ctx.signal }),
    watchCatalog: (req, ctx) => client.watchCatalog(req, { signal: ctx.signal }),
  };
}
