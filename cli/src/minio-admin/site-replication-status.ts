import type { McContext } from "../runtime/context.js";
import { mcError } from "../core/errors.js";
import { iBytes } from "../util/humanize.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { comma } from "./go-format.js";
import { humanizeTime } from "./go-time.js";
import { prettyRow } from "./user-run.js";
import { siteReplicationCapability, srStatus, type StatusOptions } from "./site-replication.js";

type Stats = Record<string, Record<string, Record<string, boolean | string>>>;

interface SrMetric {
  endpoint?: string;
  totalDowntime?: number;
  lastOnline?: string;
  isOnline?: boolean;
  replicatedSize?: number;
  replicatedCount?: number;
  failed?: { lastMinute?: { count?: number }; lastHour?: { count?: number }; totals?: { count?: number } };
}

interface StatusInfo {
  Enabled?: boolean;
  MaxBuckets?: number;
  MaxUsers?: number;
  MaxGroups?: number;
  MaxPolicies?: number;
  Sites?: Record<string, { name?: string }>;
  BucketStats?: Stats;
  PolicyStats?: Stats;
  UserStats?: Stats;
  GroupStats?: Stats;
  MaxILMExpiryRules?: number;
  ILMExpiryStats?: Stats | null;
  Metrics?: {
    activeWorkers?: { curr?: number; avg?: number; max?: number };
    replicaSize?: number;
    replicaCount?: number;
    queued?: Record<"curr" | "avg" | "max", { count?: number; bytes?: number } | undefined>;
    replMetrics?: Record<string, SrMetric>;
    uptime?: number;
  };
}

/** mc's humanized duration: `N seconds`, `N minutes N seconds`, … `N days N hours N minutes N seconds`. */
function humanized(ns: number): string {
  const s = Math.trunc(ns / 1e9);
  const [d, h, m, sec] = [Math.trunc(s / 86400), Math.trunc(s / 3600) % 24, Math.trunc(s / 60) % 60, s % 60];
  if (d === 0 && h === 0 && m === 0) return `${sec} seconds`;
  if (d === 0 && h === 0) return `${m} minutes ${sec} seconds`;
  if (d === 0) return `${h} hours ${m} minutes ${sec} seconds`;
  return `${d} days ${h} hours ${m} minutes ${sec} seconds`;
}

const row = (cells: readonly string[]): string => prettyRow(cells, cells.map(() => 15), " | ");

/** Which flag marks an entity as present on a site, and which mark it out of sync (upstream's per-kind switches). */
const kinds = {
  bucket: { title: "Bucket", plural: "Buckets", max: "MaxBuckets", stats: "BucketStats", has: "HasBucket", bad: ["OLockConfigMismatch", "PolicyMismatch", "QuotaCfgMismatch", "ReplicationCfgMismatch", "TagMismatch"] },
  policy: { title: "Policy", plural: "Policies", max: "MaxPolicies", stats: "PolicyStats", has: "HasPolicy", bad: ["PolicyMismatch"] },
  user: { title: "User", plural: "Users", max: "MaxUsers", stats: "UserStats", has: "HasUser", bad: ["UserInfoMismatch"] },
  group: { title: "Group", plural: "Groups", max: "MaxGroups", stats: "GroupStats", has: "HasGroup", bad: ["GroupDescMismatch"] },
} as const;

type Sites = readonly (readonly [string, string])[];
const ilmCell = (st: Record<string, boolean | string> | undefined, inSync: string): string =>
  st?.["HasILMExpiryRules"] !== true ? " " : st["ILMExpiryRuleMismatch"] === true ? `✗ ${inSync}` : `✔ ${inSync}`;

/** upstream's ILM expiry rules section (madmin v3 `ILMExpiryStats`): a row, then a blank line, per rule out of sync. */
function ilmSection(info: StatusInfo, sites: Sites): string[] {
  const out = ["ILM Expiry Rules replication status:"];
  const stats = info.ILMExpiryStats;
  const max = info.MaxILMExpiryRules ?? 0;
  if (max === 0) return [...out, "No ILM Expiry Rules present\n"];
  if (stats === undefined || stats === null) return [...out, "Replication of ILM Expiry is not enabled\n"];
  const rules = Object.keys(stats).sort();
  out.push(`●  ${max - rules.length}/${max} ILM Expiry Rules in sync\n`);
  if (rules.length > 0) out.push(row(["ILM Expiry Rules", ...sites.map(([n]) => n)]));
  for (const r of rules) out.push(row([r, ...sites.map(([, id]) => ilmCell(stats[r]?.[id], " in-sync"))]), "");
  return out;
}

/** upstream `getILMExpiryStatusSummary`: one rule across the sites. */
function ilmSummary(info: StatusInfo, sites: Sites, rule: string): string[] {
  const st = info.ILMExpiryStats?.[rule] ?? {};
  if (!Object.values(st).some((x) => x["HasILMExpiryRules"] === true)) return [`ILM Expiry Rule ${rule} not found\n`];
  return [`●  ILM Expiry Rule replication summary for: ${rule}\n`, row(["ILMExpiryRule", ...sites.map(([n]) => n)]), row(["ILM Expiry Rule", ...sites.map(([, id]) => ilmCell(st[id], ""))])];
}

/** upstream `srStatus.String()` (colours aside; an entity's drill-down as one row per entity). */
export function statusText(info: StatusInfo, o: StatusOptions): string {
  if (info.Enabled !== true) return "SiteReplication is not enabled";
  const sites = Object.entries(info.Sites ?? {}).map(([id, s]) => [(s.name ?? "").toUpperCase(), id] as const).sort(([a], [b]) => (a < b ? -1 : 1));
  const out: string[] = [];
  const cell = (k: (typeof kinds)[keyof typeof kinds], ss: Record<string, boolean | string> | undefined): string =>
    ss?.[k.has] !== true ? " " : k.bad.some((b) => ss[b] === true) ? "✗  in-sync" : "✔  in-sync";
  // Buckets get a blank line after each row, the other kinds one after all (upstream's loops).
  const rows = (k: (typeof kinds)[keyof typeof kinds], stats: Stats, only?: string): void => {
    out.push(row([k.title, ...sites.map(([n]) => n)]));
    for (const name of Object.keys(stats).sort()) {
      if (only !== undefined && name !== only) continue;
      out.push(row([name, ...sites.map(([, id]) => cell(k, stats[name]?.[id]))]));
      if (k === kinds.bucket && only === undefined) out.push("");
    }
  };
  for (const key of ["bucket", "policy", "user", "group"] as const) {
    const k = kinds[key];
    if (!o[`${key === "policy" ? "policie" : key}s` as "buckets" | "policies" | "users" | "groups"]) continue;
    out.push(`${k.title} replication status:`);
    const max = Number(info[k.max] ?? 0);
    const stats = info[k.stats] ?? {};
    const n = Object.keys(stats).length;
    if (max === 0) out.push(`No ${k.plural} present\n`);
    else {
      out.push(`●  ${max - n}/${max} ${k.plural} in sync\n`);
      if (n > 0) {
        rows(k, stats);
        if (k !== kinds.bucket) out.push("");
      }
    }
  }
  if (o.ilmExpiryRules) out.push(...ilmSection(info, sites));
  if (o.entity === "ilm-expiry-rule") out.push(...ilmSummary(info, sites, o.entityValue ?? ""));
  else if (o.entity !== undefined) {
    const k = kinds[o.entity];
    const stats = info[k.stats] ?? {};
    const found = Object.values(stats[o.entityValue ?? ""] ?? {}).some((st) => st[k.has] === true);
    if (!found) out.push(`${k.title} ${o.entityValue ?? ""} not found\n`);
    else {
      out.push(`●  ${k.title} replication summary for: ${o.entityValue ?? ""}\n`);
      rows(k, stats, o.entityValue);
    }
  }
  const ms = info.Metrics;
  if (o.metrics && ms !== undefined) {
    const targets = Object.values(ms.replMetrics ?? {});
    const single = targets.length === 1;
    const q = ms.queued ?? { curr: undefined, avg: undefined, max: undefined };
    const w = ms.activeWorkers ?? {};
    const queued = `Queued:        ● ${comma(q.curr?.count ?? 0)} objects, (${iBytes(q.curr?.bytes ?? 0)}) (avg: ${comma(q.avg?.count ?? 0)} objects, ${iBytes(q.avg?.bytes ?? 0)}; max: ${comma(q.max?.count ?? 0)} objects, ${iBytes(q.max?.bytes ?? 0)})`;
    const received = `Received:      ${comma(ms.replicaCount ?? 0)} objects (${iBytes(ms.replicaSize ?? 0)})`;
    out.push("Object replication status:", `Replication status since ${humanizeTime(new Date(Date.now() - (ms.uptime ?? 0) * 1000))}`);
    let count = 0;
    let size = 0;
    for (const m of targets) {
      out.push(m.endpoint ?? "", `Replicated:    ${comma(m.replicatedCount ?? 0)} objects (${iBytes(m.replicatedSize ?? 0)})`);
      if (single) out.push(received, queued, `Workers:       ${comma(w.curr ?? 0)} (avg: ${comma(Math.trunc(w.avg ?? 0))}; max ${comma(w.max ?? 0)}) `);
      count += m.replicatedCount ?? 0;
      size += m.replicatedSize ?? 0;
      const down = m.isOnline !== true && m.lastOnline && !m.lastOnline.startsWith("0001") ? (Date.now() - new Date(m.lastOnline).getTime()) * 1e6 : 0;
      const total = Math.max(down, m.totalDowntime ?? 0);
      out.push(`Link:          ● ${m.isOnline === true ? `online (total downtime: ${humanized(total)})` : `offline ${humanized(down)} (total downtime: ${humanized(total)})`}`);
      out.push(`Errors:        ${comma(m.failed?.lastMinute?.count ?? 0)} in last 1 minute; ${comma(m.failed?.lastHour?.count ?? 0)} in last 1hr; ${comma(m.failed?.totals?.count ?? 0)} since uptime`, "");
    }
    if (!single) out.push("Summary:", `Replicated:    ${comma(count)} objects (${iBytes(size)})`, queued, received);
  }
  return out.join("\n");
}

export interface StatusFlags {
  readonly buckets: boolean;
  readonly users: boolean;
  readonly groups: boolean;
  readonly policies: boolean;
  readonly all: boolean;
  readonly bucket: string | undefined;
  readonly user: string | undefined;
  readonly group: string | undefined;
  readonly policy: string | undefined;
  readonly ilmExpiryRules?: boolean;
  readonly ilmExpiryRule?: string | undefined;
}

/** upstream `srStatusOpts`. */
export function statusOptions(f: StatusFlags): StatusOptions {
  const group = f.buckets || f.users || f.groups || f.policies || f.ilmExpiryRules === true;
  const named = { bucket: f.bucket, user: f.user, group: f.group, policy: f.policy, "ilm-expiry-rule": f.ilmExpiryRule };
  const entities = (["bucket", "user", "group", "policy", "ilm-expiry-rule"] as const).filter((k) => named[k] !== undefined);
  if (group && entities.length > 0) throw mcError("Cannot specify both (bucket|group|policy|user|ilm-expiry-rule) flag and one or more of buckets|groups|policies|users|ilm-expiry-rules) flag(s).", undefined, "invalid_argument");
  if (entities.length > 1) throw mcError("Cannot specify more than one of --bucket, --policy, --user, --group, --ilm-expiry-rule  flags at the same time.", undefined, "invalid_argument");
  if ((!group && entities.length === 0) || f.all) return { buckets: true, users: true, groups: true, policies: true, metrics: true, ilmExpiryRules: true };
  const entity = entities[0];
  return { buckets: f.buckets, policies: f.policies, users: f.users, groups: f.groups, metrics: false, ilmExpiryRules: f.ilmExpiryRules === true, ...(entity !== undefined ? { entity, entityValue: named[entity] ?? "" } : {}) };
}

/** `mc admin replicate status ALIAS [FLAGS]` (upstream cmd/admin-replicate-status.go). */
export async function runReplicateStatus(ctx: McContext, args: readonly string[], f: StatusFlags): Promise<void> {
  if (args.length !== 1) throw mcError("Need exactly one alias argument.", undefined, "invalid_argument");
  const o = statusOptions(f);
  const target = adminTarget(ctx, args[0]);
  const info = await srStatus(target.client, o).catch((err: unknown) => {
    throw adminFailure("Unable to get cluster replication status", siteReplicationCapability, err);
  });
  ctx.output.result(info, statusText(info as StatusInfo, o));
}
