import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { goDuration, goRound } from "./go-format.js";
import { goTimeString } from "./go-time.js";
import { followJson } from "./json-stream.js";
import { createReplayPace, replayLines } from "./replay-input.js";
import { runBucketScanStatus } from "./scanner-bucket.js";

export const scannerCapability = "The scanner's metrics";

interface TimedAction {
  count?: number;
  acc_time_ns?: number;
  bytes?: number;
}

interface ScannerMetrics {
  collected?: string;
  current_cycle?: number;
  current_started?: string;
  cycle_complete_times?: string[] | null;
  ongoing_buckets?: number;
  last_minute?: { actions?: Record<string, TimedAction>; ilm?: Record<string, TimedAction> };
  active?: string[] | null;
}

interface RealtimeMetrics {
  errors?: string[] | null;
  aggregated?: { scanner?: ScannerMetrics | null };
  final?: boolean;
}

const avg = (x: TimedAction | undefined): number => (x?.count ? Math.floor((x.acc_time_ns ?? 0) / x.count) : 0);
const avgBytes = (x: TimedAction | undefined): number => (x?.count ? Math.floor((x.bytes ?? 0) / x.count) : 0);

/** upstream `metricsDuration`. */
export function metricsDuration(ns: number): string {
  if (ns === 0) return "0ms";
  let d = ns;
  if (d > 1e6) d = goRound(d, 1e3);
  if (d > 1e9) d = goRound(d, 1e6);
  if (d > 6e10) d = goRound(d, 1e8);
  return goDuration(d);
}

const dhm = (ns: number): string => `${Math.trunc(ns / 8.64e13)}d${Math.trunc(ns / 3.6e12) % 24}h${Math.trunc(ns / 6e10) % 60}m`;

/** upstream's scanner view (`scannerMetricsUI.View`) as plain lines: colours, spinner and terminal-size cuts aside. */
export function scannerView(m: RealtimeMetrics, maxPaths: number): string {
  const sc = m.aggregated?.scanner;
  if (!sc) return "(waiting for data)";
  const rows: string[] = [""];
  const cycles = [...(sc.cycle_complete_times ?? [])].map((t) => new Date(t).getTime()).sort((a, b) => b - a);
  if ((sc.current_cycle ?? 0) === 0 && !sc.current_started && (sc.cycle_complete_times ?? null) === null) {
    rows.push(`     Scanning: ${sc.ongoing_buckets ?? 0} bucket(s)`);
  } else {
    const want = 16;
    if (cycles.length < 2) rows.push("Last full scan time:             Unknown (not enough data)");
    else {
      rows.push("Overall Statistics", "------------------");
      const full = cycles.length >= want;
      const since = full ? ((cycles[0] ?? 0) - (cycles[want - 1] ?? 0)) * 1e6 : ((cycles[0] ?? 0) - (cycles[1] ?? 0)) * 1e6 * want;
      const perMonth = since > 0 ? (30 * 8.64e13) / since : 0;
      rows.push(`${full ? "Last full scan time:" : "Est. full scan time:"}   ${dhm(since)}; Estimated ${perMonth.toFixed(2)}/month`);
    }
    rows.push((sc.current_cycle ?? 0) > 0 ? `Current cycle:         ${sc.current_cycle ?? 0}; Started: ${goTimeString(sc.current_started ?? "")}` : "Current cycle:         (between cycles)");
  }
  rows.push(`Active drives: ${(sc.active ?? []).length}`);
  const rate = (x: TimedAction | undefined): string => (x?.acc_time_ns ? `; Rate: ${Math.trunc((x.count ?? 0) * 1440)}/day` : "");
  const a = sc.last_minute?.actions ?? {};
  rows.push("", "Last Minute Statistics", "----------------------");
  const objs = a["ScanObject"]?.count ?? 0;
  rows.push(`Objects Scanned:       ${objs} objects; Avg: ${metricsDuration(avg(a["ScanObject"]))}${rate(a["ScanObject"])}`);
  rows.push(`Versions Scanned:      ${a["ApplyVersion"]?.count ?? 0} versions; Avg: ${metricsDuration(avg(a["ApplyVersion"]))}${rate(a["ApplyVersion"])}`);
  rows.push(`Versions Heal Checked: ${a["HealCheck"]?.count ?? 0} versions; Avg: ${metricsDuration(avg(a["HealCheck"]))}${rate(a["HealCheck"])}`);
  rows.push(`Read Metadata:         ${a["ReadMetadata"]?.count ?? 0} objects; Avg: ${metricsDuration(avg(a["ReadMetadata"]))}, Size: ${avgBytes(a["ReadMetadata"])} bytes/obj`);
  rows.push(`ILM checks:            ${a["ILM"]?.count ?? 0} versions; Avg: ${metricsDuration(avg(a["ILM"]))}`);
  rows.push(`Check Replication:     ${a["CheckReplication"]?.count ?? 0} versions; Avg: ${metricsDuration(avg(a["CheckReplication"]))}`);
  if ((a["TierObjSweep"]?.count ?? 0) > 0) rows.push(`Sweep Tiered:        ${a["TierObjSweep"]?.count ?? 0} versions; Avg: ${metricsDuration(avg(a["TierObjSweep"]))}`);
  rows.push(`Verify Deleted:        ${a["CheckMissing"]?.count ?? 0} folders; Avg: ${metricsDuration(avg(a["CheckMissing"]))}`);
  if ((a["HealAbandonedObject"]?.count ?? 0) > 0) rows.push(` Missing Objects:      ${a["HealAbandonedObject"]?.count ?? 0} objects healed; Avg: ${metricsDuration(avg(a["HealAbandonedObject"]))}${rate(a["HealAbandonedObject"])}`);
  if ((a["HealAbandonedVersion"]?.count ?? 0) > 0) rows.push(` Missing Versions:     ${a["HealAbandonedVersion"]?.count ?? 0} versions healed; Avg: ${metricsDuration(avg(a["HealAbandonedVersion"]))}${rate(a["HealAbandonedVersion"])}; ${avgBytes(a["HealAbandonedVersion"])} bytes/v`);
  // Go walks the map in random order: sorted here.
  for (const [k, x] of Object.entries(sc.last_minute?.ilm ?? {}).sort(([p], [q]) => (p < q ? -1 : 1))) rows.push(`ILM, ${`${k}:`.padEnd(17)} ${x.count ?? 0} actions; Avg: ${metricsDuration(avg(x))}.`);
  const y = a["Yield"];
  const yAvg = objs > 0 ? `${metricsDuration(Math.floor((y?.acc_time_ns ?? 0) / objs))}/obj` : metricsDuration(avg(y));
  rows.push(`Yield:                 ${metricsDuration(y?.acc_time_ns ?? 0)} total; Avg: ${yAvg}`);
  if ((m.errors ?? []).length > 0) rows.push("------------------------------------------- Errors --------------------------------------------------", ...(m.errors ?? []));
  const paths = sc.active ?? [];
  if (maxPaths !== 0 && paths.length > 0) {
    rows.push("------------------------------------- Currently Scanning Paths --------------------------------------");
    for (const [i, p] of paths.entries()) {
      if (i === maxPaths) break;
      rows.push((p.length > 100 ? `${p.slice(0, 97)}...` : p).replace(/\\/g, "/"));
    }
  }
  return rows.join("\n");
}

export interface ScannerFlags {
  readonly nodes: string | undefined;
  readonly n: string;
  readonly interval: string;
  readonly maxPaths: string;
  /** --bucket B: the scan state of one bucket per erasure set instead. */
  readonly bucket?: string | undefined;
  /** --in FILE: samples saved earlier with --json, replayed (no server). */
  readonly in?: string | undefined;
}

const int = (flag: string, v: string): number => {
  if (!/^-?\d+$/.test(v)) throw usageError(`invalid value "${v}" for flag -${flag}.`);
  return Number(v);
};

/**
 * `mc admin scanner status ALIAS [--nodes A,B] [-n N] [--interval S] [--max-paths N]`
 * (upstream cmd/admin-scanner-status.go): madmin's Metrics (GET /metrics?types=1
 * &n=N&interval=Ss&hosts=…&disks=) followed until N samples, the server's
 * final sample, Ctrl-C or a closed stdout. Upstream redraws one screen; ours
 * prints each sample's view in turn (JSON: each sample as the server sent it).
 * --bucket asks for one bucket's scan state instead; --in replays samples
 * saved with --json at their pace (at most 3 s apart), no server needed.
 */
export async function runScannerStatus(ctx: McContext, args: readonly string[], f: ScannerFlags): Promise<void> {
  const replay = (f.in ?? "") !== "";
  if (args.length !== 1 && !(replay && args.length === 0)) throw usageError("admin scanner status needs one ALIAS (or --in FILE).");
  const n = int("n", f.n);
  const interval = int("interval", f.interval);
  const maxPaths = int("max-paths", f.maxPaths);
  let seen = 0;
  const show = (raw: unknown): void => {
    seen++;
    if (ctx.output.json) ctx.output.printJson(raw);
    else ctx.output.line(`${seen > 1 ? "\n" : ""}Scanner Activity:\n${scannerView(raw as RealtimeMetrics, maxPaths)}`);
  };
  if (replay) {
    const pace = createReplayPace(ctx.signal);
    await replayLines(f.in ?? "", ctx.signal, async (raw) => {
      const sc = (raw as RealtimeMetrics).aggregated?.scanner;
      if (!sc) return;
      await pace(sc.collected ?? "");
      if (!ctx.signal.aborted) show(raw);
    });
    return;
  }
  const target = adminTarget(ctx, args[0]);
  if ((f.bucket ?? "") !== "") return runBucketScanStatus(ctx, target.client, f.bucket ?? "");
  const query = { types: "1", n: String(n), interval: goDuration(interval * 1e9), hosts: (f.nodes ?? "").split(",").join(","), disks: "" };
  const how = await followJson(target.client, { method: "GET", path: "/metrics", query }, (raw) => {
    show(raw);
    return (raw as RealtimeMetrics).final !== true;
  }).catch((err: unknown) => {
    if (ctx.signal.aborted) throw err;
    throw adminFailure("Unable to fetch scanner metrics", scannerCapability, err);
  });
  // madmin's Metrics: an answer that ends before the final sample is io.ErrUnexpectedEOF.
  if (how === "ended" && !ctx.signal.aborted) throw mcError("Unable to fetch scanner metrics.", new Error("unexpected EOF"), "unavailable");
}
