import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import { createConnectGate, createRestHandler, withBodyWithin, type RestRoute } from "@mc/shared/rest";
import type { AuditLog } from "./audit.js";
import { watchCertificates, readTlsOptions, type TlsFiles } from "./cert-reloader.js";
import { answerTimeout, defaultRequestTimeoutMs, isConnectPath, maxBodyBytes, refuseTooLarge, refuseUnaudited } from "./edge-limits.js";
import { kmsServices, publicPaths } from "./kms-operations.js";
import type { KmsMetrics } from "./metrics.js";
import type { RequestInfo } from "./request-info.js";

export interface EdgeOptions {
  readonly host: string;
  readonly port: number;
  readonly tls: TlsFiles;
  /** The per-request caller facts (identity from the client certificate). */
  readonly infoOf: (req: IncomingMessage) => RequestInfo;
  readonly routes: readonly RestRoute[];
  /** Connect handler for `/kms.v1.*` paths (same identity, same checks). */
  readonly connect: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  readonly metrics: KmsMetrics;
  readonly audit: AuditLog;
  readonly log: (line: string) => void;
  readonly requestTimeoutMs?: number;
}

export interface Edge {
  readonly server: Server;
  readonly port: number;
  close(): Promise<void>;
}

const routeLabels = new WeakMap<IncomingMessage, string>();

/**
 * The TLS edge on 7373: TLS 1.2+ only, client certificates requested but not
 * required (health works without one), the REST table and the Connect
 * handlers behind one identity extraction, metrics and audit per request.
 */
export async function startEdge(o: EdgeOptions): Promise<Edge> {
  const routes = o.routes.map((r): RestRoute => ({
    ...r,
    handle: (req) => {
      routeLabels.set(req.raw, r.pattern);
      return r.handle(req);
    },
  }));
  const rest = createRestHandler({
    routes,
    jsonContentType: "application/json",
    formatError: (err, status) => ({ status, body: { message: err.message } }),
    methodNotAllowedMessage: (method, allowed) => `received method '${method}' expected '${allowed.filter((m) => m !== "HEAD").join(", ")}'`,
    methodAliases: { PUT: "POST" },
    maxBodyBytes,
    onError: (err) => logInternal(err),
  });
  function logInternal(err: unknown): void {
    o.log(`kms: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }
  const connect = o.connect && createConnectGate({ handler: o.connect, services: kmsServices, maxBodyBytes, onError: logInternal });
  const timeoutMs = o.requestTimeoutMs ?? defaultRequestTimeoutMs;
  const { metrics, audit, infoOf } = o;

  // One sweep per second instead of a timer per request (the hot path).
  const inflight = new Set<{ deadline: number; res: ServerResponse; method: string | undefined; path: string }>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const e of inflight) {
      if (e.deadline > now) continue;
      inflight.delete(e);
      // The limit is on arriving and being answered: an answer already under
      // way (the audit stream lives as long as its subscriber) is not cut.
      if (e.res.headersSent) continue;
      metrics.timeouts.inc();
      answerTimeout(e.res, e.method, e.path);
    }
  }, 1000);
  sweep.unref();
  const counters = new Map<string, ReturnType<typeof metrics.requests.labels>>();
  const requestCounter = (method: string, route: string, code: number) => {
    const k = `${method} ${route} ${code}`;
    let c = counters.get(k);
    if (!c) {
      c = metrics.requests.labels(method, route, String(code));
      counters.set(k, c);
    }
    return c;
  };
  const server = createServer(
    { ...readTlsOptions(o.tls), minVersion: "TLSv1.2", requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const started = process.hrtime.bigint();
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const isPublic = publicPaths.has(path);
      metrics.inflight.inc();
      const entry = { deadline: Date.now() + timeoutMs, res, method: req.method, path };
      inflight.add(entry);
      res.once("close", () => {
        inflight.delete(entry);
        metrics.inflight.dec();
        if (!res.writableFinished) metrics.canceled.inc();
        // Raw paths only for answered RPCs: labels must not grow with what clients send.
        const rpc = path.startsWith("/kms.v1.") && res.statusCode !== 404 ? path : "unmatched";
        const route = routeLabels.get(req) ?? rpc;
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        requestCounter(req.method ?? "", route, res.statusCode).inc();
        metrics.duration.observe({ route }, seconds);
        metrics.requestSize.observe(Number(req.headers["content-length"] ?? 0));
        metrics.responseSize.observe(Number(res.getHeader("content-length") ?? 0));
        if (isPublic) return;
        const info = infoOf(req);
        audit.record({ ip: info.ip, enclave: info.enclave, path: info.path, identity: info.identity ?? "", code: info.refused ?? res.statusCode, micros: Math.round(seconds * 1e6) });
      });
      if (!isPublic) infoOf(req);
      if (!isPublic && audit.failure() !== undefined) return refuseUnaudited(res, isConnectPath(path));
      // The body is read (or refused) here, before any route or Connect handler authenticates the caller.
      const toConnect = connect !== undefined && isConnectPath(path);
      withBodyWithin(req, res, maxBodyBytes, () => refuseTooLarge(res, toConnect), (body) => {
        if (toConnect) connect(req, res, body);
        else void rest(req, res);
      });
    },
  );
  server.on("tlsClientError", () => undefined);
  const reloader = watchCertificates(o.tls, (opts) => server.setSecureContext(opts), o.log);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    server,
    port: typeof address === "object" && address ? address.port : o.port,
    close() {
      reloader.close();
      clearInterval(sweep);
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

