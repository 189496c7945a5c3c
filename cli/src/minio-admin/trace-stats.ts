import type { AdminClient } from "./admin-client.js";
import { streamJson } from "./json-stream.js";
import { tabTable } from "./tab-table.js";
import { flatMatch } from "../util/wildcard.js";
import { iBytes } from "../util/humanize.js";

export const traceCapability = "Tracing the cluster's API calls";

/** The trace kinds madmin v2.0.7 `ServiceTraceOpts.AddParams` names, all off but S3 for `top api`. */
const traceKinds = ["s3", "internal", "storage", "os", "scanner", "decommission", "healing", "batch-replication", "rebalance", "replication-resync", "bootstrap"] as const;

/** GET /trace as madmin's ServiceTrace with S3 calls only; `each` gets every trace record. */
export async function followTrace(client: AdminClient, onlyErrors: boolean, each: (t: Record<string, unknown>) => void): Promise<void> {
  const query: Record<string, string> = { err: String(onlyErrors), threshold: "0s" };
  for (const k of traceKinds) query[k] = String(k === "s3");
  await streamJson(client, { method: "GET", path: "/trace", query }, (v) => {
    if (typeof v === "object" && v !== null && !Array.isArray(v)) each(v as Record<string, unknown>);
  });
}

export interface TraceFilter {
  readonly names: readonly string[];
  readonly paths: readonly string[];
  readonly nodes: readonly string[];
}

/** upstream nameMatch: a pattern without a `.` means an S3 call (`PutObject` = `s3.PutObject`); `*` wildcards. */
function nameMatches(pattern: string, name: string): boolean {
  const full = pattern.includes(".") ? pattern : `s3.${pattern}`;
  return flatMatch(full, name) || flatMatch(pattern, name);
}

export function traceMatches(f: TraceFilter, t: Record<string, unknown>): boolean {
  const name = typeof t["funcname"] === "string" ? t["funcname"] : "";
  const path = typeof t["path"] === "string" ? t["path"] : "";
  const node = typeof t["nodename"] === "string" ? t["nodename"] : "";
  if (f.names.length > 0 && !f.names.some((p) => nameMatches(p, name))) return false;
  if (f.paths.length > 0 && !f.paths.some((p) => path.replace(/^\/+/, "").startsWith(p.replace(/^\/+/, "")))) return false;
  if (f.nodes.length > 0 && !f.nodes.some((p) => flatMatch(p, node))) return false;
  return true;
}

/** Go's time.Duration String() of nanoseconds (non-negative). */
export function goDuration(ns: number): string {
  const frac = (v: number, unit: number): string => (v / unit).toFixed(9).replace(/\.?0+$/, "");
  if (ns === 0) return "0s";
  if (ns < 1e3) return `${ns}ns`;
  if (ns < 1e6) return `${frac(ns, 1e3)}µs`;
  if (ns < 1e9) return `${frac(ns, 1e6)}ms`;
  const h = Math.floor(ns / 3.6e12);
  const m = Math.floor((ns % 3.6e12) / 6e10);
  const s = frac(ns % 6e10, 1e9);
  return `${h > 0 ? `${h}h${m}m` : m > 0 ? `${m}m` : ""}${s}s`;
}

interface CallStats {
  count: number;
  errors: number;
  totalNs: number;
  minNs: number;
  maxNs: number;
  ttfbTotalNs: number;
  ttfbMaxNs: number;
  bytes: number;
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** Per-call statistics of the traces seen (upstream's trace stats view: count, RPM, times, errors). */
export function createTraceStats(now: () => number = Date.now) {
  const started = now();
  const calls = new Map<string, CallStats>();
  return {
    add(t: Record<string, unknown>): void {
      const name = typeof t["funcname"] === "string" ? t["funcname"] : "";
      const http = obj(t["http"]);
      const stats = obj(http["stats"]);
      const status = num(obj(http["response"])["statuscode"]);
      const dur = num(t["dur"]) || num(stats["latency"]);
      const ttfb = num(stats["timetofirstbyte"]);
      const c = calls.get(name) ?? { count: 0, errors: 0, totalNs: 0, minNs: Infinity, maxNs: 0, ttfbTotalNs: 0, ttfbMaxNs: 0, bytes: 0 };
      c.count++;
      if (status >= 400 || (typeof t["error"] === "string" && t["error"] !== "")) c.errors++;
      c.totalNs += dur;
      c.minNs = Math.min(c.minNs, dur);
      c.maxNs = Math.max(c.maxNs, dur);
      c.ttfbTotalNs += ttfb;
      c.ttfbMaxNs = Math.max(c.ttfbMaxNs, ttfb);
      c.bytes += num(stats["inputbytes"]) + num(stats["outputbytes"]);
      calls.set(name, c);
    },
    view(): { text: string; json: unknown } {
      const minutes = Math.max((now() - started) / 60000, 1 / 60);
      const rows = [...calls.entries()].sort(([a, x], [b, y]) => y.count - x.count || (a < b ? -1 : a > b ? 1 : 0));
      const d = (ns: number): string => goDuration(Math.round(ns / 1000) * 1000);
      const table = tabTable(
        ["Call", "Count", "RPM", "Avg Time", "Min Time", "Max Time", "Avg TTFB", "Max TTFB", "Avg Size", "Errors"],
        rows.map(([name, c]) => [name, String(c.count), (c.count / minutes).toFixed(1), d(c.totalNs / c.count), d(c.minNs), d(c.maxNs), d(c.ttfbTotalNs / c.count), d(c.ttfbMaxNs), iBytes(Math.round(c.bytes / c.count)), String(c.errors)]),
      );
      const json = {
        status: "success",
        calls: rows.map(([name, c]) => ({ name, count: c.count, rpm: Number((c.count / minutes).toFixed(1)), avgDuration: Math.round(c.totalNs / c.count), minDuration: c.minNs, maxDuration: c.maxNs, avgTTFB: Math.round(c.ttfbTotalNs / c.count), maxTTFB: c.ttfbMaxNs, avgSize: Math.round(c.bytes / c.count), errors: c.errors })),
      };
      return { text: calls.size === 0 ? `${table}\n(no calls yet)` : table, json };
    },
  };
}
