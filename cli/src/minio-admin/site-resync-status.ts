import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { iBytes } from "../util/humanize.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { goDuration } from "./go-format.js";
import { followJson } from "./json-stream.js";
import { siteReplicationCapability, srInfo } from "./site-replication.js";

interface SiteResync {
  resyncStatus?: string;
  startTime?: string;
  lastUpdate?: string;
  resyncID?: string;
  completedReplicationSize?: number;
  replicationCount?: number;
  failedReplicationCount?: number;
  bucket?: string;
  object?: string;
}

/** madmin `SiteResyncMetrics.Complete()`. */
const complete = (m: SiteResync): boolean => (m.resyncStatus ?? "").toLowerCase() === "completed";

/** upstream's resync view (`resyncMetricsUI.View`) once done: marks, then label/value rows aligned. */
export function resyncView(m: SiteResync): string {
  const out: string[] = [complete(m) ? ((m.failedReplicationCount ?? 0) === 0 ? "✔ ✔ ✔ " : "✗ ✗ ✗ ") : ""];
  if (m.resyncID) {
    const elapsed = new Date(m.lastUpdate ?? 0).getTime() - new Date(m.startTime ?? 0).getTime();
    const rows: [string, string][] = [["ResyncID: ", m.resyncID], ["Objects: ", String(m.replicationCount ?? 0)], ["Versions: ", String(m.replicationCount ?? 0)], ["FailedObjects: ", String(m.failedReplicationCount ?? 0)]];
    if (elapsed > 0) {
      rows.push(["Throughput: ", `${iBytes(Math.trunc(((m.completedReplicationSize ?? 0) * 1000) / elapsed))}/s`], ["IOPs: ", `${(((m.replicationCount ?? 0) * 1000) / elapsed).toFixed(2)} objs/s`]);
    }
    rows.push(["Transferred: ", iBytes(m.completedReplicationSize ?? 0)], ["Elapsed: ", goDuration(Math.max(0, elapsed) * 1e6)], ["CurrObjName: ", `${m.bucket ?? ""}/${m.object ?? ""}`]);
    const w = Math.max(...rows.map(([l]) => l.length));
    for (const [l, v] of rows) out.push(`${l.padEnd(w)}${v}`);
  }
  return out.join("\n");
}

/**
 * `mc admin replicate resync status ALIAS SITE` (upstream
 * cmd/admin-replicate-resync-status.go): the site of that name from the
 * replication info, then madmin's Metrics for its resync (types=16,
 * by-depID) followed until the resync completes. Upstream redraws a screen;
 * ours prints the last view (JSON: each sample as sent).
 */
export async function runResyncStatus(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 2) throw usageError("replicate resync status needs ALIAS and SITE.");
  const target = adminTarget(ctx, args[0]);
  const info = await srInfo(target.client).catch((err: unknown) => {
    throw adminFailure("Unable to fetch site replication info", siteReplicationCapability, err);
  });
  if (!info.enabled) {
    ctx.output.result({ status: "success", enabled: false }, "SiteReplication is not enabled");
    return;
  }
  const peer = (info.sites ?? []).find((s) => s.name === args[1]);
  if (!peer?.deploymentID) throw mcError("alias provided is not part of cluster replication.", undefined, "invalid_argument");
  let last: SiteResync | undefined;
  await followJson(target.client, { method: "GET", path: "/metrics", query: { types: "16", n: "0", interval: "0s", hosts: "", disks: "", "by-depID": peer.deploymentID } }, (raw) => {
    const r = raw as { aggregated?: { siteResync?: SiteResync | null }; final?: boolean };
    if (ctx.output.json) ctx.output.printJson(raw);
    const sr = r.aggregated?.siteResync ?? undefined;
    if (sr) last = sr;
    return !(sr && complete(sr)) && r.final !== true;
  }).catch((err: unknown) => {
    if (ctx.signal.aborted) throw err;
    throw adminFailure("Unable to get current status", siteReplicationCapability, err);
  });
  if (!ctx.output.json) ctx.output.line(resyncView(last ?? {}));
}
