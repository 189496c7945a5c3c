// `@mc/shared/connect`: the edges' side of the spine. The one table from an
// error reason to a Connect code and an HTTP status, the RPC log interceptor,
// and Connect over the bus (a client transport and a server bridge, with the
// subject of each RPC path). Loads @connectrpc/connect; never for domain code.
export { errorTable, fromConnectError, httpStatusOf, httpStatusOfError, reasonHeader, toConnectError } from "./error-mapping.js";
export { createRpcLogInterceptor } from "./rpc-log.js";
export { queueOfPath, subjectOfPath } from "./nats-subject.js";
export type { NodeAddress } from "./nats-subject.js";
export { createBusTransport } from "./connect-bus/bus-transport.js";
export type { BusTransportOptions } from "./connect-bus/bus-transport.js";
export { serveOverBus } from "./connect-bus/serve-over-bus.js";
export type { BusServer, ServeOverBusOptions } from "./connect-bus/serve-over-bus.js";
export { defaultFlow } from "./connect-bus/frames.js";
export type { FlowSettings } from "./connect-bus/frames.js";
