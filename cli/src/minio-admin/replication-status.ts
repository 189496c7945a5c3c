import { iBytes } from "../util/humanize.js";
import { goDurationString } from "./batch.js";
import { humanizeTime } from "./go-time.js";
import { comma } from "./replicate-common.js";
import type { ReplConfig } from "./replication-config.js";

/** The parts of minio-go's MetricsV2 (`?replication-metrics=2`) that `replicate status` prints. */
interface RStat {
  readonly count?: number;
  readonly bytes?: number;
}
interface TimedErr {
  readonly lastMinute?: RStat;
  readonly lastHour?: RStat;
  readonly totals?: RStat;
}
interface TargetStats {
  readonly replicationCount?: number;
  readonly completedReplicationSize?: number;
  readonly limitInBits?: number;
  readonly currentBandwidth?: number;
  readonly failed?: TimedErr;
}
interface QStat {
  readonly count?: number;
  readonly bytes?: number;
}
interface Xfer {
  readonly avgRate?: number;
  readonly peakRate?: number;
  readonly currRate?: number;
}
interface NodeStats {
  readonly activeWorkers?: { readonly curr?: number; readonly avg?: number; readonly max?: number };
  readonly transferSummary?: Record<string, Xfer>;
  readonly tgtTransferStats?: Record<string, Record<string, Xfer>>;
}
export interface MetricsV2 {
  readonly uptime?: number;
  readonly currStats?: {
    readonly Stats?: Record<string, TargetStats>;
    readonly completedReplicationSize?: number;
    readonly replicaSize?: number;
    readonly replicaCount?: number;
    readonly replicationCount?: number;
    readonly failed?: TimedErr;
    readonly queued?: { readonly curr?: QStat; readonly avg?: QStat; readonly peak?: QStat };
  };
  readonly queueStats?: { readonly nodes?: readonly NodeStats[] };
}

/** A remote target as list-remote-targets answers it (madmin v3 adds the link state). */
export interface TargetState {
  readonly arn?: string;
  readonly endpoint?: string;
  readonly isOnline?: boolean;
  readonly totalDowntime?: number;
  readonly lastOnline?: string;
  readonly latency?: { readonly curr?: number; readonly avg?: number; readonly max?: number };
}

/** go-humanize Bytes (SI units): `1.0 kB`, `512 B`. */
export function siBytes(n: number): string {
  if (n < 10) return `${Math.floor(n)} B`;
  const units = ["B", "kB", "MB", "GB", "TB", "PB", "EB"];
  const e = Math.min(Math.floor(Math.log(n) / Math.log(1000)), units.length - 1);
  const v = Math.floor((n / 1000 ** e) * 10 + 0.5) / 10;
  return `${v < 10 ? v.toFixed(1) : v.toFixed(0)} ${units[e] ?? ""}`;
}

const n = (v: number | undefined): number => v ?? 0;
const ms = (ns: number | undefined): string => goDurationString(Math.round(n(ns) / 1e6));
const errors = (e: TimedErr | undefined): string => `${comma(n(e?.lastMinute?.count))} in last 1 minute; ${comma(n(e?.lastHour?.count))} in last 1hr; ${comma(n(e?.totals?.count))} since uptime`;

/**
 * upstream replicateStatusMessage.String() (cmd/replicate-status.go), one
 * line per row (upstream's tablewriter pads the rows; that padding is not reproduced).
 */
export function renderReplicationStatus(m: MetricsV2, targets: readonly TargetState[], cfg: ReplConfig, now = new Date()): string {
  if (cfg.Rules.length === 0) return "Replication is not configured.";
  const rs = m.currStats ?? {};
  const nodes = m.queueStats?.nodes ?? [];
  const live = (arn: string): boolean => cfg.Rules.some((r) => r.Destination.Bucket === arn) || cfg.Role === arn;
  const workers = { curr: 0, avg: 0, max: 0 };
  const xfer: Xfer & { avgRate: number; peakRate: number; currRate: number } = { avgRate: 0, peakRate: 0, currRate: 0 };
  const tgtXfer = new Map<string, { avgRate: number; peakRate: number; currRate: number }>();
  for (const node of nodes) {
    workers.curr += n(node.activeWorkers?.curr);
    workers.avg += n(node.activeWorkers?.avg);
    workers.max = Math.max(workers.max, n(node.activeWorkers?.max));
    const total = node.transferSummary?.["Total"];
    xfer.avgRate += n(total?.avgRate);
    xfer.currRate += n(total?.currRate);
    xfer.peakRate = Math.max(xfer.peakRate, n(total?.peakRate));
    for (const [arn, stats] of Object.entries(node.tgtTransferStats ?? {})) {
      const t = tgtXfer.get(arn) ?? { avgRate: 0, peakRate: 0, currRate: 0 };
      const s = stats["Total"];
      t.avgRate += n(s?.avgRate);
      t.currRate += n(s?.currRate);
      t.peakRate = Math.max(t.peakRate, n(s?.peakRate));
      tgtXfer.set(arn, t);
    }
  }
  if (nodes.length > 0) {
    workers.curr = Math.trunc(workers.curr / nodes.length);
    workers.avg /= nodes.length;
  }
  const q = rs.queued ?? {};
  const queued = `Queued:                       ● ${comma(n(q.curr?.count))} objects, ${iBytes(n(q.curr?.bytes))} (avg: ${comma(n(q.avg?.count))} objects, ${iBytes(n(q.avg?.bytes))} ; max: ${comma(n(q.peak?.count))} objects, ${iBytes(n(q.peak?.bytes))})`;
  const workersRow = `Workers:                      ${comma(workers.curr)} (avg: ${comma(workers.avg)}; max: ${comma(workers.max)})`;
  const rows: string[] = [`Replication status since ${humanizeTime(new Date(now.getTime() - n(m.uptime) * 1000), now)}`];
  const arns = Object.keys(rs.Stats ?? {}).sort();
  const single = arns.length === 1;
  let replSize = n(rs.completedReplicationSize);
  let replCount = n(rs.replicationCount);
  let first = true;
  for (const arn of arns) {
    const st = rs.Stats?.[arn] ?? {};
    if (!live(arn)) {
      replSize -= n(st.completedReplicationSize);
      replCount -= n(st.replicationCount);
      continue;
    }
    if (!first) rows.push("");
    first = false;
    const tgt = targets.find((t) => t.arn === arn) ?? {};
    const down = tgt.isOnline !== true && tgt.lastOnline && !tgt.lastOnline.startsWith("0001-") ? now.getTime() - Date.parse(tgt.lastOnline) : 0;
    const totalDown = Math.max(down, Math.round(n(tgt.totalDowntime) / 1e6));
    rows.push(tgt.endpoint || arn);
    rows.push(`Replicated:                   ${comma(n(st.replicationCount))} objects (${iBytes(n(st.completedReplicationSize))})`);
    if (single) rows.push(queued, workersRow);
    const tx = tgtXfer.get(arn) ?? { avgRate: 0, peakRate: 0, currRate: 0 };
    rows.push(`Transfer Rate:                ${siBytes(tx.currRate)}/s (avg: ${siBytes(tx.avgRate)}/s; max: ${siBytes(tx.peakRate)}/s`);
    rows.push(`Latency:                      ${ms(tgt.latency?.curr)} (avg: ${ms(tgt.latency?.avg)}; max: ${ms(tgt.latency?.max)})`);
    rows.push(`Link:                         ● ${tgt.isOnline === true ? `online (total downtime: ${goDurationString(Math.round(totalDown / 1000) * 1000)})` : `offline ${goDurationString(Math.round(down / 1000) * 1000)} (total downtime: ${goDurationString(Math.round(totalDown / 1000) * 1000)})`}`);
    rows.push(`Errors:                       ${errors(st.failed)}`);
    if (n(st.limitInBits) > 0) {
      const current = n(st.currentBandwidth) > 0 ? `${siBytes(n(st.currentBandwidth))}/s` : "N/A";
      rows.push(`Configured Max Bandwidth (Bps): ${siBytes(n(st.limitInBits))}/s   Current Bandwidth (Bps): ${current}`);
    }
  }
  if (!single) {
    rows.push("\nSummary:");
    rows.push(`Replicated:                   ${comma(Math.max(replCount, 0))} objects (${iBytes(Math.max(replSize, 0))})`);
    rows.push(queued, workersRow);
    rows.push(`Received:                     ${comma(n(rs.replicaCount))} objects (${iBytes(n(rs.replicaSize))})`);
    rows.push(`Transfer Rate:                ${siBytes(xfer.currRate)}/s (avg: ${siBytes(xfer.avgRate)}/s; max: ${siBytes(xfer.peakRate)}/s)`);
    rows.push(`Errors:                       ${errors(rs.failed)}`);
  }
  return rows.join("\n");
}
