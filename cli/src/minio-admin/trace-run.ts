import { posix } from "node:path";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { flatMatch, shellMatch } from "../util/wildcard.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { goDuration } from "./go-format.js";
import { followJson } from "./json-stream.js";
import { shortTraceJson, shortTraceText, toTraceInfo, verboseTraceJson, verboseTraceText, type TraceInfo } from "./trace-format.js";
import { runTraceStats } from "./trace-stats-run.js";

export const traceCapability = "Tracing the server's calls";

/**
 * Call types and the query parameter each sets (madmin-go v2.0.7
 * `ServiceTraceOpts.AddParams`); `ilm`, `ftp`, `batch-keyrotation` and
 * `batch-expiration` (parameter `batch-expire`) are current upstream's
 * (madmin v3), sent only when asked for.
 */
const callTypes: Readonly<Record<string, string>> = {
  storage: "storage", internal: "internal", s3: "s3", os: "os", scanner: "scanner", bootstrap: "bootstrap",
  healing: "healing", heal: "healing", "batch-replication": "batch-replication", brep: "batch-replication",
  decommission: "decommission", decom: "decommission", rebalance: "rebalance",
  "replication-resync": "replication-resync", resync: "replication-resync",
  ilm: "ilm", ftp: "ftp", "batch-keyrotation": "batch-keyrotation", brot: "batch-keyrotation",
  "batch-expiration": "batch-expire", bexp: "batch-expire",
};
const v2Params = ["s3", "internal", "storage", "os", "scanner", "decommission", "healing", "batch-replication", "rebalance", "replication-resync", "bootstrap"] as const;

export interface TraceFlags {
  readonly verbose: boolean;
  readonly all: boolean;
  readonly call: readonly string[];
  readonly statusCode: readonly string[];
  readonly method: readonly string[];
  readonly funcname: readonly string[];
  readonly path: readonly string[];
  readonly node: readonly string[];
  readonly requestHeader: readonly string[];
  readonly requestQuery: readonly string[];
  readonly errors: boolean;
  readonly filterRequest: boolean;
  readonly filterResponse: boolean;
  readonly responseDuration: string | undefined;
  readonly filterSize: string | undefined;
  /** --stats: per-call statistics instead of each call. */
  readonly stats?: boolean;
  /** Hidden --stats-n: the busiest calls shown (default 20). */
  readonly statsN?: string;
  /** --in FILE: statistics of traces saved earlier with --json (no server). */
  readonly in?: string;
}

/** Go `time.ParseDuration` (units ns us µs ms s m h, fractions, several terms) in nanoseconds. */
export function parseGoDuration(s: string): number | undefined {
  const unit: Readonly<Record<string, number>> = { ns: 1, us: 1e3, "µs": 1e3, ms: 1e6, s: 1e9, m: 6e10, h: 3.6e12 };
  const m = /^([-+]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(s);
  if (s === "0") return 0;
  if (!m) return undefined;
  let total = 0;
  for (const part of s.replace(/^[-+]/, "").matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) total += Number(part[1]) * (unit[part[2] ?? ""] ?? 0);
  return Math.round(m[1] === "-" ? -total : total);
}

/** go-humanize ParseBytes: `1MB` = 10^6, `1MiB`/`1mi` = 2^20, case-insensitive, a bare number is bytes. */
export function parseHumanBytes(s: string): number | undefined {
  const m = /^\s*([\d.]+)\s*([kmgtpe]?)(i?)b?\s*$/i.exec(s);
  if (!m || m[1] === undefined || Number.isNaN(Number(m[1]))) return undefined;
  const exp = "kmgtpe".indexOf((m[2] ?? "").toLowerCase()) + 1;
  return Math.floor(Number(m[1]) * (m[3] ? 1024 : 1000) ** exp);
}

/** The trace query: every v2.0.7 parameter, as madmin sets them. */
export function traceQuery(f: TraceFlags): Record<string, string> {
  if (f.all && f.call.length > 0) throw mcError("You cannot specify both --all and --call flags at the same time.", undefined, "invalid_argument");
  const on = new Set<string>();
  if (f.all) for (const p of new Set(Object.values(callTypes))) on.add(p);
  const asked = f.call.flatMap((c) => c.split(","));
  for (const c of asked) {
    const p = callTypes[c];
    if (p === undefined) throw mcError("Unable to start tracing.", new Error(`unknown call name: \`${c}\``), "invalid_argument");
    on.add(p);
  }
  if (asked.length === 0) on.add("s3");
  let threshold = 0;
  if (f.responseDuration !== undefined) {
    const d = parseGoDuration(f.responseDuration);
    if (d === undefined) throw usageError(`invalid value "${f.responseDuration}" for flag -response-duration.`);
    threshold = d;
  }
  const q: Record<string, string> = { err: String(f.errors), threshold: goDuration(threshold) };
  for (const p of v2Params) q[p] = String(on.has(p));
  for (const p of ["ilm", "ftp", "batch-keyrotation", "batch-expire"]) if (on.has(p)) q[p] = "true";
  return q;
}

export interface Matcher {
  (t: TraceInfo): boolean;
}

/** Go `strings.MatchSimple`-style (minio/pkg wildcard.MatchSimple): only `*` is special. */
function simpleMatch(pattern: string, text: string): boolean {
  const re = new RegExp(`^${pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`, "s");
  return re.test(text);
}

/** upstream `nameMatch`: a shell pattern of the whole name, or equal to one of its `/` parts. */
const nameMatch = (pattern: string, name: string): boolean => shellMatch(pattern, name) || name.split("/").includes(pattern);

/** upstream `matchOpts.matches` (the client-side filters). */
export function traceMatcher(f: TraceFlags): Matcher {
  const codes = f.statusCode.map((c) => {
    if (!/^-?\d+$/.test(c)) throw usageError(`invalid value "${c}" for flag -status-code.`);
    return Number(c);
  });
  const sizeOf = (on: boolean): number => {
    if (!on || f.filterSize === undefined || f.filterSize === "") return 0;
    const n = parseHumanBytes(f.filterSize);
    if (n === undefined) throw mcError("Unable to parse input bytes.", new Error(`strconv.ParseFloat: parsing "${f.filterSize}": invalid syntax`), "invalid_argument");
    return n;
  };
  if ((f.filterRequest || f.filterResponse) && (f.filterSize ?? "") === "") throw usageError("--filter-request and --filter-response need --filter-size.");
  const requestSize = sizeOf(f.filterRequest);
  const responseSize = sizeOf(f.filterResponse);
  const negatable = (list: readonly string[]): { val: string; reverse: boolean }[] => list.map((s) => ({ reverse: s.startsWith("!"), val: s.replace(/^!/, "") }));
  const headers = negatable(f.requestHeader);
  const queries = negatable(f.requestQuery);
  return (t) => {
    const h = t.http;
    if (f.path.length > 0 && !f.path.some((p) => flatMatch(posix.join("/", p), t.path))) return false;
    if (codes.length > 0 && !codes.some((c) => h !== undefined && h.response.statuscode === c)) return false;
    if (f.method.length > 0 && !f.method.some((m) => h !== undefined && h.request.method === m)) return false;
    if (f.funcname.length > 0 && !f.funcname.some((n) => nameMatch(n, t.funcname))) return false;
    if (f.node.length > 0 && !f.node.some((n) => nameMatch(n, t.nodename))) return false;
    if (headers.length > 0 && h !== undefined) {
      const lines = Object.entries(h.request.headers ?? {}).flatMap(([k, vs]) => vs.map((v) => `${k}: ${v}`));
      if (!headers.some((m) => lines.some((l) => simpleMatch(m.val, l)) !== m.reverse)) return false;
    }
    if (queries.length > 0 && h !== undefined) {
      const pairs = [...new URLSearchParams(h.request.rawquery ?? "").entries()].map(([k, v]) => `${k}=${v}`);
      if (!queries.some((m) => pairs.some((p) => simpleMatch(m.val, p)) !== m.reverse)) return false;
    }
    if (requestSize > 0 && (h?.stats.inputbytes ?? 0) < requestSize) return false;
    if (responseSize > 0 && (h?.stats.outputbytes ?? 0) < responseSize) return false;
    return true;
  };
}

/**
 * `mc admin trace ALIAS [FLAGS]` (upstream cmd/admin-trace.go): follows
 * GET /trace until Ctrl-C (130) or a closed stdout (141). A server that ends
 * the stream ends the command with an error, as madmin reports it to mc.
 */
export async function runTrace(ctx: McContext, args: readonly string[], f: TraceFlags): Promise<void> {
  const replay = (f.in ?? "") !== "";
  if (args.length !== 1 && !(replay && args.length === 0)) throw usageError("admin trace needs one ALIAS (or --in FILE).");
  const query = traceQuery(f);
  const matches = traceMatcher(f);
  if (f.stats === true || replay) return runTraceStats(ctx, args[0], f, query, matches);
  const target = adminTarget(ctx, args[0]);
  await followJson(target.client, { method: "GET", path: "/trace", query }, (raw) => {
    const t = toTraceInfo(raw);
    if (!matches(t)) return;
    if (f.verbose) ctx.output.result(verboseTraceJson(t), verboseTraceText(t));
    else ctx.output.result(shortTraceJson(t), shortTraceText(t));
  }).catch((err: unknown) => {
    if (ctx.signal.aborted) throw err;
    throw adminFailure("Unable to listen to http trace", traceCapability, err);
  });
  if (!ctx.signal.aborted) throw mcError("Unable to listen to http trace.", new Error("EOF"), "unavailable");
}
