import type { CallOptions } from "@connectrpc/connect";
import { requestIdHeader, requestIdOptions } from "@mc/shared/node";
import { catalogVersionHeader } from "@mc/releases";
import type { CachedResponse } from "../http/response-cache.js";
import type { RestRequest } from "@mc/shared/rest";

/** The request id the gateway put on the request, for the bus calls made for it. */
const idOf = (req: RestRequest) => {
  const id = req.headers[requestIdHeader];
  return requestIdOptions(typeof id === "string" ? id : undefined);
};

/**
 * Call options that also catch the `catalog-version` the release service
 * answered with; `tag` puts it on the made response (for the cache) and in
 * its headers (so a client can tell which catalog an answer came from).
 */
export function catalogCall(req: RestRequest): { options: CallOptions; tag: <T extends Omit<CachedResponse, "storedAt">>(made: T) => T } {
  let version: string | undefined;
  return {
    options: { ...idOf(req), onHeader: (h) => (version = h.get(catalogVersionHeader) ?? undefined) },
    tag: (made) => (version === undefined ? made : { ...made, catalogVersion: version, headers: { ...made.headers, [catalogVersionHeader]: version } }),
  };
}
