// Prometheus metrics of the gateway (`GET /metrics`), with the same names as
// the KMS edge's (contracts/kms.md §6) so one dashboard shows both.
import type { IncomingMessage, ServerResponse } from "node:http";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/** A bounded label for a path: never the raw URL, so series stay few. */
export function routeOf(url: string | undefined): string {
  const raw = url ?? "/";
  const q = raw.indexOf("?");
  const path = q < 0 ? raw : raw.slice(0, q);
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
  /** Counts a response already sent without a listener or timing (refused before routing). */
  record(req: IncomingMessage, status: number): void;
  /**
   * Counts an answer of the cache's hot path: `answer` (one URL, one status) keeps
   * its counters, so a hit costs one WeakMap lookup, not a route and a label key.
   */
  recordHot(answer: object, method: string | undefined, url: string | undefined, status: number): void;
  /** The exposition text. */
  render(): Promise<string>;
  readonly contentType: string;
}

interface HotCell {
  readonly method: string;
  readonly route: string;
  readonly code: string;
  n: number;
}

export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  // The event-loop delay is sampled every 100 ms, not prom-client's 10 ms:
  // a 10 ms timer woke an idle gateway 100 times a second (0.7 % of a core).
  // Ten samples a second still show a loop that is slow; a single stall
  // shorter than 100 ms may fall between two of them.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  // Answers from the in-memory cache are counted in plain numbers and added
  // at scrape time: a registry update per request cost the hot path a
  // quarter of its throughput.
  const hot = new Map<string, HotCell>();
  /** The counter of one series, made on its first answer. Bounded: a few methods, routes and codes, never the raw URL. */
  const hotCell = (method: string, route: string, status: number): HotCell => {
    const key = `${method} ${route} ${status}`;
    let h = hot.get(key);
    if (!h) hot.set(key, (h = { method, route, code: String(status), n: 0 }));
    return h;
  };
  const byAnswer = new WeakMap<object, { GET?: HotCell; HEAD?: HotCell }>();
  const requests: Counter<"method" | "route" | "code"> = new Counter({
    name: "http_request",
    help: "Requests served, by method, route and status code.",
    labelNames: ["method", "route", "code"],
    registers: [registry],
    collect() {
      for (const h of hot.values()) {
        if (h.n > 0) requests.inc({ method: h.method, route: h.route, code: h.code }, h.n);
        h.n = 0;
      }
    },
  });
  const inflight = new Gauge({ name: "http_request_inflight", help: "Requests in progress.", registers: [registry] });
  const duration = new Histogram({
    name: "http_request_duration",
    help: "Seconds to serve a request not answered from the in-memory cache (those take microseconds), by route.",
    labelNames: ["route"],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // Label lookups hash their arguments on every call: keep one child per series.
  const counters = new Map<string, ReturnType<typeof requests.labels>>();
  const timers = new Map<string, ReturnType<typeof duration.labels>>();
  const count = (method: string, route: string, status: number, seconds: number): void => {
    const key = `${method} ${route} ${status}`;
    let counter = counters.get(key);
    if (!counter) counters.set(key, (counter = requests.labels({ method, route, code: String(status) })));
    counter.inc();
    let timer = timers.get(route);
    if (!timer) timers.set(route, (timer = duration.labels({ route })));
    timer.observe(seconds);
  };
  return {
    contentType: registry.contentType,
    observe(req, res) {
      const started = performance.now();
      inflight.inc();
      // "close" follows "finish" and also ends aborted responses: count once, there.
      res.once("close", () => {
        inflight.dec();
        count(req.method ?? "GET", routeOf(req.url), res.statusCode, (performance.now() - started) / 1000);
      });
    },
    record(req, status) {
      hotCell(req.method ?? "GET", routeOf(req.url), status).n++;
    },
    recordHot(answer, method, url, status) {
      let cells = byAnswer.get(answer);
      if (!cells) byAnswer.set(answer, (cells = {}));
      // The hot path answers GET and HEAD only.
      const verb = method === "HEAD" ? "HEAD" : "GET";
      (cells[verb] ??= hotCell(verb, routeOf(url), status)).n++;
    },
    render: () => registry.metrics(),
  };
}
