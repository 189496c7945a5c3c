export { createRestHandler } from "./rest/rest-handler.js";
export type { RestErrorAnswer, RestHandler, RestHandlerOptions, RestRequest, RestResponse, RestRoute } from "./rest/rest-handler.js";
export { createRouteTable, InvalidPathError } from "./rest/route-table.js";
export type { RouteMatch, RouteSpec, RouteTable } from "./rest/route-table.js";
export { answerAndClose, withBodyWithin } from "./http/body-limit.js";
export { answerConnectError, createConnectGate } from "./http/connect-gate.js";
export type { ConnectGateOptions, NodeHandler } from "./http/connect-gate.js";
