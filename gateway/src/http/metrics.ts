// Prometheus metrics of the gateway (`GET /metrics`), with the same names as
// the KMS edge's (contracts/kms.md §6) so one dashboard shows both.
import type { IncomingMessage, ServerResponse } from "node:http";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/** A bounded label for a path: never the raw URL, so series stay few. */
export function routeOf(url: string | undefined): string {
  const path = (url ?? "/").split("?")[0] ?? "/";
  if (path === "/healthz" || path === "/metrics" || path === "/minisign.pub") return path;
  if (path.startsWith("/releases.v1.")) return "connect";
  if (path.startsWith("/api/feeds/") || path.startsWith("/feed-")) return "feed";
  if (path.startsWith("/api/")) return "api";
  if (path.includes("/release/")) return "file";
  return "other";
}

export interface GatewayMetrics {
  /** Call at the start of a request; counts it when the response ends. */
  observe(req: IncomingMessage, res: ServerResponse): void;
  /** The exposition text. */
  render(): Promise<string>;
  readonly contentType: string;
}

export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: "http_request", help: "Requests served, by method, route and status code.", labelNames: ["method", "route", "code"], registers: [registry] });
  const inflight = new Gauge({ name: "http_request_inflight", help: "Requests in progress.", registers: [registry] });
  const duration = new Histogram({
    name: "http_request_duration",
    help: "Seconds to serve a request, by route.",
    labelNames: ["route"],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    contentType: registry.contentType,
    observe(req, res) {
      const started = performance.now();
      inflight.inc();
      // "close" follows "finish" and also ends aborted responses: count once, there.
      res.once("close", () => {
        inflight.dec();
        const route = routeOf(req.url);
        requests.inc({ method: req.method ?? "GET", route, code: String(res.statusCode) });
        duration.observe({ route }, (performance.now() - started) / 1000);
      });
    },
    render: () => registry.metrics(),
  };
}
