// Prometheus metrics of the gateway (`GET /metrics`, text format 0.0.4), the
// same names as the KMS edge's (contracts/kms.md §6) so one dashboard shows
// both. Written by hand: a few counters need no registry library in the
// gateway's dependencies.
import type { IncomingMessage, ServerResponse } from "node:http";

const buckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

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
  render(): string;
  readonly contentType: string;
}

export function createGatewayMetrics(now: () => number = () => performance.now()): GatewayMetrics {
  const requests = new Map<string, number>();
  const durations = new Map<string, { counts: number[]; sum: number; count: number }>();
  let inflight = 0;
  const esc = (v: string): string => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  return {
    contentType: "text/plain; version=0.0.4; charset=utf-8",
    observe(req, res) {
      const started = now();
      inflight++;
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        inflight--;
        const route = routeOf(req.url);
        const key = `method="${esc(req.method ?? "GET")}",route="${route}",code="${res.statusCode}"`;
        requests.set(key, (requests.get(key) ?? 0) + 1);
        const seconds = (now() - started) / 1000;
        const d = durations.get(route) ?? { counts: buckets.map(() => 0), sum: 0, count: 0 };
        buckets.forEach((b, i) => {
          if (seconds <= b) d.counts[i] = (d.counts[i] ?? 0) + 1;
        });
        d.sum += seconds;
        d.count++;
        durations.set(route, d);
      };
      res.once("finish", finish);
      res.once("close", finish);
    },
    render() {
      const lines = ["# HELP http_request Requests served, by method, route and status code.", "# TYPE http_request counter"];
      for (const [k, v] of requests) lines.push(`http_request{${k}} ${v}`);
      lines.push("# HELP http_request_inflight Requests in progress.", "# TYPE http_request_inflight gauge", `http_request_inflight ${inflight}`);
      lines.push("# HELP http_request_duration Seconds to serve a request, by route.", "# TYPE http_request_duration histogram");
      for (const [route, d] of durations) {
        buckets.forEach((b, i) => lines.push(`http_request_duration_bucket{route="${route}",le="${b}"} ${d.counts[i] ?? 0}`));
        lines.push(`http_request_duration_bucket{route="${route}",le="+Inf"} ${d.count}`);
        lines.push(`http_request_duration_sum{route="${route}"} ${d.sum}`, `http_request_duration_count{route="${route}"} ${d.count}`);
      }
      const mem = process.memoryUsage();
      lines.push("# HELP process_resident_memory_bytes Resident memory size in bytes.", "# TYPE process_resident_memory_bytes gauge", `process_resident_memory_bytes ${mem.rss}`);
      lines.push("# HELP process_uptime_seconds Seconds since the process started.", "# TYPE process_uptime_seconds gauge", `process_uptime_seconds ${process.uptime()}`);
      return `${lines.join("\n")}\n`;
    },
  };
}
