export { createRestHandler } from "./rest/rest-handler.js";
export type { RestErrorAnswer, RestHandler, RestHandlerOptions, RestRequest, RestResponse, RestRoute } from "./rest/rest-handler.js";
export { createRouteTable, InvalidPathError } from "./rest/route-table.js";
export type { RouteMatch, RouteSpec, RouteTable } from "./rest/route-table.js";
