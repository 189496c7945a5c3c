import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { iBytes } from "../util/humanize.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { consoleTable, goDuration, ordinal } from "./go-format.js";
import { humanizeTime } from "./go-time.js";

/**
 * `mc admin decommission start|status|cancel` and `mc admin rebalance
 * start|status|stop` (upstream cmd/admin-decom-*.go, cmd/admin-rebalance-*.go)
 * with madmin-go v2.0.7's pool calls.
 */
export const decomCapability = "Pool decommissioning";
export const rebalanceCapability = "Pool rebalancing";

interface PoolStatus {
  id: number;
  cmdline: string;
  lastUpdate?: string;
  decommissionInfo?: { startTime: string; startSize: number; totalSize: number; currentSize: number; complete: boolean; failed: boolean; canceled: boolean } | null;
}

const zeroTime = (t: string | undefined): boolean => t === undefined || t === "" || t.startsWith("0001-01-01");

export async function runDecomStart(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 2) throw usageError("decommission start needs ALIAS and POOL.");
  const target = adminTarget(ctx, args[0]);
  const pool = args[1] ?? "";
  await target.client.request({ method: "POST", path: "/pools/decommission", query: { pool } }).catch((err: unknown) => {
    throw adminFailure("Unable to start decommission on the specified pool", decomCapability, err);
  });
  ctx.output.result({ status: "success", pool }, `Decommission started successfully for \`${pool}\`.`);
}

function poolCapacity(p: PoolStatus): string {
  const total = p.decommissionInfo?.totalSize ?? 0;
  const used = total - (p.decommissionInfo?.currentSize ?? 0);
  return total === 0 ? "0% (total: 0B)" : `${((100 * used) / total).toFixed(1)}% (total: ${iBytes(total)})`;
}

function poolState(p: PoolStatus): string {
  const d = p.decommissionInfo;
  if (!d) return "Active";
  if (d.complete) return "Complete";
  if (d.failed) return "Draining(Failed)";
  if (d.canceled) return "Draining(Canceled)";
  return zeroTime(d.startTime) ? "Active" : "Draining";
}

export async function runDecomStatus(ctx: McContext, args: readonly string[]): Promise<number> {
  if (args.length < 1 || args.length > 2) throw usageError("decommission status needs ALIAS and an optional POOL.");
  const target = adminTarget(ctx, args[0]);
  const pool = args[1];
  if (pool !== undefined && pool !== "") {
    const p = await target.client.json<PoolStatus>({ method: "GET", path: "/pools/status", query: { pool } }).catch((err: unknown) => {
      throw adminFailure("Unable to get status per pool", decomCapability, err);
    });
    if (ctx.output.json) {
      ctx.output.printJson(p);
      return 0;
    }
    const d = p.decommissionInfo;
    let msg: string;
    if (d?.complete) msg = `Decommission of pool ${p.cmdline} is complete, you may now remove it from server command line`;
    else if (d?.failed) msg = `Decommission of pool ${p.cmdline} failed, please retry again`;
    else if (d?.canceled) msg = `Decommission of pool ${p.cmdline} was canceled, you may start again`;
    else if (d && !zeroTime(d.startTime)) {
      const usedStart = d.totalSize - d.startSize;
      const usedNow = d.totalSize - d.currentSize;
      const secs = (Date.now() - new Date(d.startTime).getTime()) / 1000;
      if (usedStart > usedNow && secs > 10) {
        msg = `Decommissioning rate at ${iBytes(Math.floor((usedStart - usedNow) / secs))}/sec [${iBytes(usedNow)}/${iBytes(d.totalSize)}]\nStarted: ${humanizeTime(new Date(d.startTime))}`;
      } else msg = "Decommissioning is starting...";
    } else {
      // upstream: a non-fatal error, status 0 kept; ours exits 1 so scripts see it.
      ctx.output.error(mcError("This pool is currently not scheduled for decomissioning.", undefined, "failed_precondition"));
      return 1;
    }
    ctx.output.line(msg);
    return 0;
  }
  const pools = await target.client.json<PoolStatus[] | null>({ method: "GET", path: "/pools/list" }).catch((err: unknown) => {
    throw adminFailure("Unable to get status for all pools", decomCapability, err);
  });
  if (ctx.output.json) {
    ctx.output.printJson(pools);
    return 0;
  }
  const rows = [["ID", "Pools", "Drives Usage", "Status"], ...(pools ?? []).map((p) => [ordinal(p.id + 1), p.cmdline, poolCapacity(p), poolState(p)])];
  ctx.output.line(consoleTable(rows));
  return 0;
}

export async function runDecomCancel(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length < 1 || args.length > 2) throw usageError("decommission cancel needs ALIAS and an optional POOL.");
  const target = adminTarget(ctx, args[0]);
  const pool = args[1];
  if (pool !== undefined && pool !== "") {
    await target.client.request({ method: "POST", path: "/pools/cancel", query: { pool } }).catch((err: unknown) => {
      throw adminFailure("Unable to cancel decommissioning, please try again", decomCapability, err);
    });
    // upstream prints nothing on success.
    return;
  }
  const pools = await target.client.json<PoolStatus[] | null>({ method: "GET", path: "/pools/list" }).catch((err: unknown) => {
    throw adminFailure("Unable to get status for all pools", decomCapability, err);
  });
  const draining = (pools ?? []).filter((p) => !p.decommissionInfo || (!zeroTime(p.decommissionInfo.startTime) && !p.decommissionInfo.complete));
  if (ctx.output.json) {
    ctx.output.printJson(draining);
    return;
  }
  const rows = [["ID", "Pools", "Capacity", "Status"], ...draining.map((p) => {
    const total = p.decommissionInfo?.totalSize ?? 0;
    return [ordinal(p.id + 1), p.cmdline, `${iBytes(total - (p.decommissionInfo?.currentSize ?? 0))} (used) / ${iBytes(total)} (total)`, p.decommissionInfo ? "Draining" : ""];
  })];
  ctx.output.line(consoleTable(rows));
}

export async function runRebalanceStart(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 1) throw usageError("rebalance start needs one ALIAS.");
  const target = adminTarget(ctx, args[0]);
  const r = await target.client.json<{ id?: string }>({ method: "POST", path: "/rebalance/start" }).catch((err: unknown) => {
    throw adminFailure("Unable to start rebalance", rebalanceCapability, err);
  });
  ctx.output.result({ status: "success", url: args[0], id: r.id ?? "" }, `Rebalance started for ${args[0] ?? ""}`);
}

export async function runRebalanceStop(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 1) throw usageError("rebalance stop needs one ALIAS.");
  const target = adminTarget(ctx, args[0]);
  await target.client.request({ method: "POST", path: "/rebalance/stop" }).catch((err: unknown) => {
    throw adminFailure("Unable to stop rebalance operation", rebalanceCapability, err);
  });
  // upstream says "Rebalance started for …" here, a slip; ours says what happened.
  ctx.output.result({ status: "success", url: args[0] }, `Rebalance stopped for ${args[0] ?? ""}`);
}

interface RebalanceStatus {
  ID?: string;
  stoppedAt?: string;
  pools?: { id: number; status: string; used: number; progress?: { objects?: number; versions?: number; bytes?: number; bucket?: string; object?: string; elapsed?: number; eta?: number } }[] | null;
}

export async function runRebalanceStatus(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 1) throw usageError("rebalance status needs one ALIAS.");
  const target = adminTarget(ctx, args[0]);
  const r = await target.client.json<RebalanceStatus>({ method: "GET", path: "/rebalance/status" }).catch((err: unknown) => {
    throw adminFailure("Unable to get rebalance status", rebalanceCapability, err);
  });
  if (ctx.output.json) {
    ctx.output.printJson(r);
    return;
  }
  const pools = r.pools ?? [];
  let bytes = 0;
  let objects = 0;
  let versions = 0;
  let elapsed = 0;
  let eta = 0;
  const row = pools.map((p) => {
    bytes += p.progress?.bytes ?? 0;
    objects += p.progress?.objects ?? 0;
    versions += p.progress?.versions ?? 0;
    elapsed = Math.max(elapsed, p.progress?.elapsed ?? 0);
    eta = Math.max(eta, p.progress?.eta ?? 0);
    return `${(p.used * 100).toFixed(2)}%${p.status === "Started" ? " *" : ""}`;
  });
  const table = consoleTable([pools.map((_, i) => `Pool-${i}`), row]);
  ctx.output.line(`Per-pool usage:\n${table}\nSummary: \nData: ${iBytes(bytes)} (${objects} objects, ${versions} versions) \nTime: ${goDuration(elapsed)} (${goDuration(eta)} to completion)`);
}
