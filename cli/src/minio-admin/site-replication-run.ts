import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { goList } from "./go-format.js";
import { prettyRow } from "./user-run.js";
import { parseHumanBytes } from "./trace-run.js";
import { siteReplicationCapability as cap, srAdd, srEdit, srInfo, srRemove, srResyncOp, type PeerInfo, type SiteReplicationInfo } from "./site-replication.js";

/** `mc admin replicate add|update|remove|info|resync` (upstream cmd/admin-replicate-*.go). */

const fail = (action: string) => (err: unknown): never => {
  throw adminFailure(action, cap, err);
};
const lines = (...parts: unknown[]): string => parts.filter((p) => typeof p === "string" && p !== "").join("\n");

export async function runReplicateAdd(ctx: McContext, args: readonly string[], replicateIlmExpiry: boolean): Promise<void> {
  if (args.length < 2) throw mcError("Need at least two arguments to add command.", undefined, "invalid_argument");
  const target = adminTarget(ctx, args[0]);
  const sites = args.map((name) => {
    const a = adminTarget(ctx, name).alias;
    const u = new URL(a.url);
    return { name, endpoints: `${u.protocol}//${u.host}`, accessKey: a.accessKey, secretKey: a.secretKey };
  });
  const r = await srAdd(target.client, sites, replicateIlmExpiry).catch(fail("Unable to add sites for replication"));
  ctx.output.result(r, lines(r["status"], r["errorDetail"], r["initialSyncErrorMessage"]));
}

/** humanize.Bytes (SI units, as upstream shows bandwidth). */
function siBytes(n: number): string {
  if (n < 10) return `${n} B`;
  const units = ["B", "kB", "MB", "GB", "TB", "PB", "EB"];
  const e = Math.min(Math.floor(Math.log10(n) / 3), units.length - 1);
  const v = Math.floor((n / 1000 ** e) * 10 + 0.5) / 10;
  return `${v < 10 ? v.toFixed(1) : v.toFixed(0)} ${units[e] ?? "B"}`;
}

export function infoText(info: SiteReplicationInfo): string {
  if (!info.enabled) return "SiteReplication is not enabled";
  const widths = [36, 15, 46, 4, 10, 25];
  const row = (cells: readonly string[]): string => prettyRow(cells, widths, " | ");
  const out = ["SiteReplication enabled for:\n", row(["Deployment ID", "Site Name", "Endpoint", "Sync", "Bandwidth", "ILM Expiry Replication"]), row(["", "", "", "", "Per Bucket", ""])];
  for (const p of info.sites ?? []) {
    const limit = p.defaultbandwidth?.bandwidthLimitPerBucket ?? 0;
    const bw = limit > 0 ? `${siBytes(limit * 8).slice(0, -1)}b/s` : "N/A";
    out.push(row([p.deploymentID, p.name, p.endpoint, p.sync === "enable" ? "✔" : "", bw, String(p["replicate-ilm-expiry"] ?? false)]));
  }
  return out.join("\n");
}

export async function runReplicateInfo(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 1) throw mcError("Need exactly one alias argument.", undefined, "invalid_argument");
  const target = adminTarget(ctx, args[0]);
  const info = await srInfo(target.client).catch(fail("Unable to get cluster replication information"));
  ctx.output.result(info, infoText(info));
}

export interface UpdateFlags {
  readonly deploymentId: string | undefined;
  readonly endpoint: string | undefined;
  readonly mode: string | undefined;
  readonly sync: string | undefined;
  readonly bucketBandwidth?: string | undefined;
  readonly disableIlmExpiry: boolean;
  readonly enableIlmExpiry?: boolean;
}

export async function runReplicateUpdate(ctx: McContext, args: readonly string[], f: UpdateFlags): Promise<void> {
  if (args.length < 1) throw usageError("replicate update needs ALIAS.");
  if (args.length !== 1) throw mcError("Invalid arguments specified for edit command.", undefined, "invalid_argument");
  const ilm = { disable: f.disableIlmExpiry, enable: f.enableIlmExpiry === true };
  if (f.deploymentId === undefined && !ilm.disable && !ilm.enable) throw mcError("--deployment-id is a required flag.", undefined, "invalid_argument");
  if (f.endpoint === undefined && f.mode === undefined && f.sync === undefined && f.bucketBandwidth === undefined && !ilm.disable && !ilm.enable) {
    throw mcError("--endpoint, --mode, --bucket-bandwidth, --disable-ilm-expiry-replication or --enable-ilm-expiry-replication is a required flag.", undefined, "invalid_argument");
  }
  if (f.mode !== undefined && f.sync !== undefined) throw mcError("either --sync or --mode flag should be specified.", undefined, "invalid_argument");
  if (ilm.disable && ilm.enable) throw mcError("either --disable-ilm-expiry-replication or --enable-ilm-expiry-replication flag should be specified.", undefined, "invalid_argument");
  if ((ilm.disable || ilm.enable) && f.deploymentId !== undefined) throw mcError("--deployment-id should not be set with --disable-ilm-expiry-replication or --enable-ilm-expiry-replication.", undefined, "invalid_argument");
  let sync = "";
  if (f.sync !== undefined) {
    sync = f.sync.toLowerCase();
    if (sync !== "enable" && sync !== "disable") throw mcError("--sync can be either [enable|disable].", undefined, "invalid_argument");
  }
  if (f.mode !== undefined) {
    const m = f.mode.toLowerCase();
    if (m !== "sync" && m !== "async") throw mcError("--mode can be either [sync|async].", undefined, "invalid_argument");
    sync = m === "sync" ? "enable" : "disable";
  }
  // upstream getBandwidthInBytes: go-humanize ParseBytes (k = 1000, ki = 1024), bytes per second.
  let defaultbandwidth: PeerInfo["defaultbandwidth"];
  if (f.bucketBandwidth !== undefined) {
    const limit = f.bucketBandwidth === "" ? 0 : parseHumanBytes(f.bucketBandwidth);
    if (limit === undefined) throw mcError("invalid bandwidth value.", new Error(`strconv.ParseFloat: parsing "${f.bucketBandwidth}": invalid syntax`), "invalid_argument");
    defaultbandwidth = { bandwidthLimitPerBucket: limit, set: true };
  }
  let endpoint = "";
  if (f.endpoint !== undefined && f.endpoint !== "") {
    try {
      new URL(f.endpoint);
    } catch (err) {
      throw mcError(`Unsupported URL format ${(err as Error).message}.`, undefined, "invalid_argument");
    }
    endpoint = f.endpoint;
  }
  const target = adminTarget(ctx, args[0]);
  const peer: Partial<PeerInfo> = { deploymentID: f.deploymentId ?? "", endpoint, sync, ...(defaultbandwidth ? { defaultbandwidth } : {}) };
  const r = await srEdit(target.client, peer, ilm).catch(fail("Unable to edit cluster replication site endpoint"));
  ctx.output.result(r, lines(r["status"], r["errorDetail"]));
}

export async function runReplicateRemove(ctx: McContext, args: readonly string[], all: boolean, force: boolean): Promise<void> {
  if (all && args.length > 1) throw mcError("Specify either --all or the sites to remove.", undefined, "invalid_argument");
  if (args.length < 2 && !all) throw mcError("Need at least two arguments to remove command.", undefined, "invalid_argument");
  if (!force) throw mcError("Site removal requires --force flag. This operation is *IRREVERSIBLE*. Please review carefully before performing this *DANGEROUS* operation.", undefined, "failed_precondition");
  const target = adminTarget(ctx, args[0]);
  const sites = args.slice(1);
  const r = await srRemove(target.client, sites, all).catch(fail("Unable to remove cluster replication"));
  const detail = String(r["errorDetail"] ?? "");
  const text = all
    ? "All site(s) were removed successfully"
    : r["status"] === "Requested site(s) were removed from cluster replication successfully."
      ? `Following site(s) ${goList(sites)} were removed successfully`
      : sites.length === 1
        ? `Following site ${goList(sites)} was removed partially, some operations failed:\nERROR: '${detail}'`
        : `Following site(s) ${goList(sites)} were removed partially, some operations failed: \nERROR: '${detail}'`;
  ctx.output.result(r, text);
}

/** The site of the replication setup named NAME, or whose deployment is the one of alias NAME (resync start asks that server). */
async function peerOf(ctx: McContext, info: SiteReplicationInfo, name: string, byServer: boolean): Promise<PeerInfo> {
  let peer: PeerInfo | undefined;
  if (byServer) {
    const other = adminTarget(ctx, name);
    const si = await other.client.json<{ deploymentID?: string }>({ method: "GET", path: "/info" }).catch(fail("Unable to fetch server info of the peer"));
    peer = (info.sites ?? []).find((s) => s.deploymentID === si.deploymentID);
  } else {
    peer = (info.sites ?? []).find((s) => s.name === name);
  }
  if (!peer?.deploymentID) throw mcError("alias provided is not part of cluster replication.", undefined, "invalid_argument");
  return peer;
}

export async function runReplicateResync(ctx: McContext, args: readonly string[], op: "start" | "cancel"): Promise<void> {
  if (args.length !== 2) throw usageError(`replicate resync ${op} needs ALIAS1 and ALIAS2.`);
  const target = adminTarget(ctx, args[0]);
  const info = await srInfo(target.client).catch(fail("Unable to fetch site replication info"));
  const peer = await peerOf(ctx, info, args[1] ?? "", op === "start");
  const r = await srResyncOp(target.client, peer, op).catch(fail(op === "start" ? "Unable to start replication resync" : "Unable to cancel replication resync"));
  const err = String(r["errorDetail"] ?? "");
  const id = String(r["id"] ?? "");
  ctx.output.result(r, err !== "" ? err : op === "start" ? `Site resync started with ID ${id}` : `Site resync with ID ${id} canceled successfully.`);
}
