// @mc/gateway: the HTTP front door of the release service (documented REST
// paths, feeds, artifacts, pages, Connect for browsers) as a library; the
// program that runs it (`gateway`, `npm start`) composes it in @mc/app.
export { createGateway, maxBodyBytes } from "./http-server.js";
export type { Gateway, GatewayDeps } from "./http-server.js";
export { createBusHealth } from "./bus-health.js";
export type { BusHealth } from "./bus-health.js";
export { parseGatewayConfig, usage } from "./config.js";
export type { GatewayConfig } from "./config.js";
