import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { BusHealth } from "./bus-health.js";

export interface GatewayDeps {
  readonly busHealth: BusHealth;
  /** "in-process" or the NATS URL, shown by /healthz. */
  readonly busName: string;
  readonly startedAt: Date;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(text);
}

async function healthz(deps: GatewayDeps, res: ServerResponse): Promise<void> {
  try {
    const ms = await deps.busHealth.ping();
    sendJson(res, 200, {
      status: "ok",
      bus: { kind: deps.busName, round_trip_ms: Number(ms.toFixed(3)) },
      uptime_s: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
    });
  } catch (err) {
    sendJson(res, 503, { status: "unavailable", bus: { kind: deps.busName, error: err instanceof Error ? err.message : "bus error" } });
  }
}

/** The gateway's HTTP server. Routes land here as the services do. */
export function createGatewayServer(deps: GatewayDeps): Server {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/healthz") {
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.setHeader("allow", "GET, HEAD");
        sendJson(res, 405, { code: 405, message: "method not allowed" });
        return;
      }
      void healthz(deps, res);
      return;
    }
    sendJson(res, 404, { code: 404, message: "not found" });
  });
}
