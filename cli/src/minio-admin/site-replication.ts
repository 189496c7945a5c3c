import type { AdminClient } from "./admin-client.js";

/**
 * Site replication calls (madmin-go cluster-commands.go). Current upstream
 * mc uses madmin-go v3, whose requests carry more than v2.0.7's: the add
 * query's replicateILMExpiry, the edit query's disableILMExpiryReplication,
 * the status query's metrics, ilm-expiry-rules and peer-state, the edit
 * query's enableILMExpiryReplication, and PeerInfo's sync and
 * defaultbandwidth fields; those are sent here as v3 sends them.
 */
export const siteReplicationCapability = "Site replication";

const apiVersion = "1";
const encoder = new TextEncoder();
const json = (v: unknown): Uint8Array => encoder.encode(JSON.stringify(v));

export interface PeerSite {
  readonly name: string;
  readonly endpoints: string;
  readonly accessKey: string;
  readonly secretKey: string;
}

/** madmin v3 `PeerInfo`. */
export interface PeerInfo {
  endpoint: string;
  name: string;
  deploymentID: string;
  sync?: string;
  defaultbandwidth?: { bandwidthLimitPerBucket?: number; set?: boolean; updatedAt?: string };
  "replicate-ilm-expiry"?: boolean;
}

/** PeerInfo as a v3 client encodes it (Go's zero values for what is missing). */
export function peerInfoV3(p: Partial<PeerInfo>): Record<string, unknown> {
  const bw = p.defaultbandwidth ?? {};
  return {
    endpoint: p.endpoint ?? "",
    name: p.name ?? "",
    deploymentID: p.deploymentID ?? "",
    sync: p.sync ?? "",
    defaultbandwidth: { bandwidthLimitPerBucket: bw.bandwidthLimitPerBucket ?? 0, set: bw.set ?? false, updatedAt: bw.updatedAt ?? "0001-01-01T00:00:00Z" },
  };
}

export interface SiteReplicationInfo {
  enabled: boolean;
  name?: string;
  sites?: PeerInfo[] | null;
  serviceAccountAccessKey?: string;
}

export interface StatusOptions {
  buckets: boolean;
  policies: boolean;
  users: boolean;
  groups: boolean;
  metrics: boolean;
  /** madmin v3 `ILMExpiryRules`. */
  ilmExpiryRules: boolean;
  entity?: "bucket" | "policy" | "user" | "group" | "ilm-expiry-rule";
  entityValue?: string;
}

/** PUT /site-replication/add?api-version=1&replicateILMExpiry=B with the sites encrypted. */
export function srAdd(client: AdminClient, sites: readonly PeerSite[], replicateIlmExpiry: boolean): Promise<Record<string, unknown>> {
  return client.json({ method: "PUT", path: "/site-replication/add", query: { "api-version": apiVersion, replicateILMExpiry: String(replicateIlmExpiry) }, body: json(sites), encrypt: true });
}

/** GET /site-replication/info?api-version=1. */
export function srInfo(client: AdminClient): Promise<SiteReplicationInfo> {
  return client.json({ method: "GET", path: "/site-replication/info", query: { "api-version": apiVersion } });
}

/** PUT /site-replication/edit?api-version=1&disableILMExpiryReplication=B&enableILMExpiryReplication=B with the peer encrypted. */
export function srEdit(client: AdminClient, peer: Partial<PeerInfo>, ilm: { disable: boolean; enable: boolean }): Promise<Record<string, unknown>> {
  const query = { "api-version": apiVersion, disableILMExpiryReplication: String(ilm.disable), enableILMExpiryReplication: String(ilm.enable) };
  return client.json({ method: "PUT", path: "/site-replication/edit", query, body: json(peerInfoV3(peer)), encrypt: true });
}

/** PUT /site-replication/remove?api-version=1 with `{requestingDepID, sites, all}` (not encrypted). */
export function srRemove(client: AdminClient, sites: readonly string[], all: boolean): Promise<Record<string, unknown>> {
  return client.json({ method: "PUT", path: "/site-replication/remove", query: { "api-version": apiVersion }, body: json({ requestingDepID: "", sites: sites.length > 0 ? sites : null, all }) });
}

/** GET /site-replication/status?… (madmin v3 `SRStatusInfo`). */
export function srStatus(client: AdminClient, o: StatusOptions): Promise<Record<string, unknown>> {
  const q: Record<string, string> = {
    buckets: String(o.buckets),
    policies: String(o.policies),
    users: String(o.users),
    groups: String(o.groups),
    showDeleted: "false",
    metrics: String(o.metrics),
    "ilm-expiry-rules": String(o.ilmExpiryRules),
    "peer-state": "false",
    "api-version": apiVersion,
  };
  if (o.entity !== undefined) {
    q["entityvalue"] = o.entityValue ?? "";
    q["entity"] = o.entity;
  }
  return client.json({ method: "GET", path: "/site-replication/status", query: q });
}

/** PUT /site-replication/resync/op?operation=start|cancel&api-version=1 with the peer (not encrypted). */
export function srResyncOp(client: AdminClient, peer: Partial<PeerInfo>, operation: "start" | "cancel"): Promise<Record<string, unknown>> {
  return client.json({ method: "PUT", path: "/site-replication/resync/op", query: { operation, "api-version": apiVersion }, body: json(peerInfoV3(peer)) });
}
