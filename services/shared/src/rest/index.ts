// `@mc/shared/rest`: the REST-to-Connect library of the spine, mounted by the
// gateway for the release paths and by each KMS node on its 7373 edge: a
// route table of documented paths, a handler that turns a route's answer or
// error into the HTTP response (one error table), request bodies read within
// a limit before any route runs, and the gate in front of a Connect adapter.
// Loads node:http types and @connectrpc/connect; never for domain code.
export { createRestHandler } from "./rest-handler.js";
export type { RestErrorAnswer, RestHandler, RestHandlerOptions, RestRequest, RestResponse, RestRoute } from "./rest-handler.js";
export { createRouteTable, InvalidPathError } from "./route-table.js";
export type { RouteMatch, RouteSpec, RouteTable } from "./route-table.js";
export { announcesBody, answerAndClose, withBodyWithin } from "./body-limit.js";
export { answerConnectError, createConnectGate } from "./connect-gate.js";
export type { ConnectGateOptions, NodeHandler } from "./connect-gate.js";
export { createConnectInputCheck } from "./connect-input.js";
export type { ConnectInputVerdict } from "./connect-input.js";
