import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createClient } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { acceptRequestId, requestIdHeader, type Logger } from "@mc/shared/node";
import { AppError } from "@mc/shared/errors";
import { createBusTransport } from "@mc/shared/connect";
import type { Bus } from "@mc/shared/bus";
import { announcesBody, answerAndClose, answerConnectError, createConnectGate, createRestHandler, withBodyWithin, type RestRoute } from "@mc/shared/rest";
import { createCatalogEvents, type ReleaseStore } from "@mc/releases";
import { ReleaseService } from "@mc/releases/gen/releases/v1/releases_pb.js";
import type { BusHealth } from "./bus-health.js";
import { createGatewayMetrics } from "./http/metrics.js";
import { createResponseCache, type ResponseCache } from "./http/response-cache.js";
import { readHotRequest } from "./http/hot-request.js";
import { answerHot } from "./http/send-generated.js";
import { RawLaneServer, type RawLaneStats } from "./http/raw-lane.js";
import { createApiRoutes } from "./releases/api-routes.js";
import { createAssetRoute } from "./releases/assets.js";
import { createReleaseProxy } from "./releases/connect-proxy.js";
import { createFileRoutes } from "./releases/file-routes.js";
import { createIndexRoutes } from "./releases/index-routes.js";

/** Browsers call ReleaseService here (Connect protocol, same origin as the page). */
const connectPrefix = `/${ReleaseService.typeName}/`;

/**
 * The releases contract sets no body limit. No documented path takes a body
 * and a browser's ReleaseService request is a few hundred bytes, so 64 KiB,
 * counted while the body is read, before any route or Connect handler.
 */
export const maxBodyBytes = 64 * 1024;
/** A request (headers and body) must arrive within this time; Node answers 408 and closes otherwise. */
const requestTimeoutMs = 15_000;
const noBody = new Uint8Array(0);

export interface GatewayDeps {
  readonly bus: Bus;
  readonly busHealth: BusHealth;
  /** "in-process" or the NATS URL, shown by /healthz. */
  readonly busName: string;
  readonly store: ReleaseStore;
  /** Public base URL: every URL in responses is built from it. */
  readonly base: string;
  readonly startedAt: Date;
  readonly now?: () => number;
  readonly onError?: (err: unknown) => void;
  /** One line per request (method, path, status, ms, reqId). */
  readonly log?: Logger;
}

export interface Gateway {
  readonly server: Server;
  readonly cache: ResponseCache;
  /** What the raw lane answered and handed to Node (raw-lane.ts). */
  readonly lane: RawLaneStats;
  close(): void;
}

function healthRoute(deps: GatewayDeps): RestRoute {
  return {
    methods: ["GET"],
    pattern: "/healthz",
    async handle() {
      try {
        const ms = await deps.busHealth.ping();
        return {
          headers: { "cache-control": "no-store" },
          body: { status: "ok", bus: { kind: deps.busName, round_trip_ms: Number(ms.toFixed(3)) }, uptime_s: Math.round((Date.now() - deps.startedAt.getTime()) / 1000) },
        };
      } catch (err) {
        return { status: 503, headers: { "cache-control": "no-store" }, body: { status: "unavailable", bus: { kind: deps.busName, error: err instanceof Error ? err.message : "bus error" } } };
      }
    },
  };
}

/**
 * The public gateway: documented REST paths and feeds (through ReleaseService
 * on the bus, cached 5 minutes and dropped on every catalog event), and
 * artifacts streamed from the store.
 */
export function createGateway(deps: GatewayDeps): Gateway {
  const now = deps.now ?? Date.now;
  const cache = createResponseCache({ now });
  const client = createClient(ReleaseService, createBusTransport({ bus: deps.bus, defaultTimeoutMs: 15000 }));
  // A versioned event drops only answers made from older catalogs; an event without one drops all.
  // The releases instances also repeat the store's version every 400 ms: a gateway that missed
  // an event (reconnecting to NATS, started late) drops its stale answers at the next one.
  const events = createCatalogEvents(deps.bus);
  const stopEvents = events.subscribe((event) => (event.catalogVersion === "" ? cache.invalidate() : void cache.observe(event.catalogVersion)));
  const stopVersions = events.onVersion((version) => void cache.observe(version));
  const stop = (): void => {
    stopEvents();
    stopVersions();
  };
  const api = { client, cache, base: deps.base, now };
  const handler = createRestHandler({
    routes: [healthRoute(deps), createAssetRoute(now), ...createApiRoutes(api), ...createIndexRoutes(api), ...createFileRoutes(deps.store, api)],
    ...(deps.onError ? { onError: deps.onError } : {}),
  });
  const connect = createConnectGate({
    handler: connectNodeAdapter({ routes: (router) => router.service(ReleaseService, createReleaseProxy(client)), readMaxBytes: maxBodyBytes }),
    services: [ReleaseService],
    maxBodyBytes,
    onError: deps.onError ?? (() => undefined),
  });
  const metrics = createGatewayMetrics();
  const log = deps.log?.isLevelEnabled("info") ? deps.log : undefined;

  function serve(req: IncomingMessage, res: ServerResponse, reqId: string, body: Uint8Array): void {
    res.setHeader(requestIdHeader, reqId);
    // Handlers pass it on from the request's headers (requestIdOptions) to every bus call.
    req.headers[requestIdHeader] = reqId;
    metrics.observe(req, res);
    if (req.url === "/metrics" && req.method === "GET") void metrics.render().then((text) => res.writeHead(200, { "content-type": metrics.contentType, "cache-control": "no-store" }).end(text));
    else if (req.url?.startsWith(connectPrefix)) connect(req, res, body);
    else void handler(req, res);
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const hot = readHotRequest(req);
    // The caller's id (or a new one) goes back in the response and along every bus call made for it.
    const incoming = hot ? hot.requestId : req.headers[requestIdHeader];
    const reqId = acceptRequestId(typeof incoming === "string" ? incoming : undefined);
    if (log) {
      const started = performance.now();
      res.once("close", () => log.info({ reqId, method: req.method, path: req.url, status: res.statusCode, ms: Math.round((performance.now() - started) * 10) / 10 }, "request"));
    }
    if (hot) {
      // The hot path answers at once and calls nothing: counted in place, no listener.
      const answer = answerHot(req, res, cache, now(), hot, reqId);
      if (answer) return metrics.recordHot(answer, req.method, req.url, answer.status);
    }
    // Bodies are read (or refused) before anything routes, authenticates or buffers them.
    if (!announcesBody(req)) serve(req, res, reqId, noBody);
    else withBodyWithin(req, res, maxBodyBytes, () => refuseTooLarge(req, res, reqId), (body) => serve(req, res, reqId, body));
  };
  // Repeated GETs are answered from the cache on the socket; everything else reaches onRequest through node:http.
  const server = new RawLaneServer({ requestTimeout: requestTimeoutMs, connectionsCheckingInterval: 1000 }, onRequest, {
    cache,
    now,
    answered(req, answer, reqId) {
      metrics.recordHot(answer, req.method, req.url, answer.status);
      log?.info({ reqId, method: req.method, path: req.url, status: answer.status, ms: 0 }, "request");
    },
    onError: deps.onError ?? (() => undefined),
  });

  function refuseTooLarge(req: IncomingMessage, res: ServerResponse, reqId: string): void {
    metrics.record(req, 413);
    res.setHeader(requestIdHeader, reqId);
    if (req.url?.startsWith(connectPrefix)) answerConnectError(res, new AppError("payload_too_large", "request body too large"), true);
    else answerAndClose(res, 413, "application/json; charset=utf-8", { code: 413, message: "request body too large" });
  }
  return {
    server,
    cache,
    lane: server.lane,
    close() {
      stop();
      server.close();
      server.closeAllConnections();
    },
  };
}
