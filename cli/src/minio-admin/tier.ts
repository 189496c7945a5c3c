import type { AdminClient } from "./admin-client.js";

/** What a server without MinIO's admin API lacks, for the one-line failure. */
export const tierCapability = "Remote tiering";

export type TierKind = "minio" | "s3" | "azure" | "gcs";
/** The key of each kind's settings in madmin's TierConfig. */
export const tierKey: Readonly<Record<TierKind, string>> = { minio: "MinIO", s3: "S3", azure: "Azure", gcs: "GCS" };

/** madmin's TierConfig as JSON: `{"Version":"v1","Type":"minio","Name":…,"MinIO":{…}}` (empty settings left out, as Go's omitempty does). */
export interface TierConfig {
  readonly Version: string;
  readonly Type: string;
  readonly Name: string;
  readonly [settings: string]: unknown;
}

export function tierConfig(kind: TierKind, name: string, settings: Record<string, string | boolean | undefined>): TierConfig {
  const kept = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined && v !== "" && v !== false));
  return { Version: "v1", Type: kind, Name: name, [tierKey[kind]]: kept };
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** The settings object of a tier's own kind ({} when missing). */
export function tierSettings(t: TierConfig): Record<string, unknown> {
  const key = tierKey[t.Type as TierKind];
  const s = key === undefined ? undefined : t[key];
  return typeof s === "object" && s !== null ? (s as Record<string, unknown>) : {};
}

/** Endpoint, bucket, prefix, region and storage class of a tier (madmin's TierConfig accessors; MinIO tiers have no storage class). */
export function tierFields(t: TierConfig): { endpoint: string; bucket: string; prefix: string; region: string; storageClass: string } {
  const s = tierSettings(t);
  return { endpoint: str(s["Endpoint"]), bucket: str(s["Bucket"]), prefix: str(s["Prefix"]), region: str(s["Region"]), storageClass: t.Type === "minio" ? "" : str(s["StorageClass"]) };
}

/** PUT /tier (the config encrypted; 204). `force` = upstream's AddTierIgnoreInUse (`?force=true`, madmin v3). */
export async function addTier(client: AdminClient, cfg: TierConfig, force: boolean): Promise<void> {
  await client.request({ method: "PUT", path: "/tier", ...(force ? { query: { force: "true" } } : {}), body: new TextEncoder().encode(JSON.stringify(cfg)), encrypt: true, expect: [204] });
}

/** GET /tier: the configured tiers (secrets redacted by the server). Entries that are not tier objects are refused, as madmin's UnmarshalJSON refuses them. */
export async function listTiers(client: AdminClient): Promise<TierConfig[]> {
  const list = await client.json<unknown>({ method: "GET", path: "/tier" });
  if (list === null) return [];
  if (!Array.isArray(list)) throw new Error("json: cannot unmarshal the tier list");
  return list.map((t: unknown) => {
    const o = (typeof t === "object" && t !== null ? t : {}) as TierConfig;
    if (o.Version !== "v1") throw new Error("invalid tier config version");
    if (!(o.Type in tierKey)) throw new Error("unsupported tier type");
    if (!o.Name) throw new Error("remote tier name empty");
    return o;
  });
}

/** madmin's TierCreds: `{"access","secret","creds"(base64),"awsrole"}`. */
export interface TierCreds {
  readonly access?: string;
  readonly secret?: string;
  /** The GCS credentials file (sent base64, as Go encodes a []byte). */
  readonly creds?: Uint8Array;
  readonly awsrole: boolean;
}

/** POST /tier/NAME with new credentials (encrypted; 204). */
export async function editTier(client: AdminClient, name: string, creds: TierCreds): Promise<void> {
  const body = { ...(creds.access ? { access: creds.access } : {}), ...(creds.secret ? { secret: creds.secret } : {}), ...(creds.creds && creds.creds.length > 0 ? { creds: Buffer.from(creds.creds).toString("base64") } : {}), awsrole: creds.awsrole };
  await client.request({ method: "POST", path: `/tier/${encodeURIComponent(name)}`, body: new TextEncoder().encode(JSON.stringify(body)), encrypt: true, expect: [204] });
}

/** DELETE /tier/NAME (204); `force` (madmin v3 RemoveTierV2) removes a tier still in use. */
export async function removeTier(client: AdminClient, name: string, force: boolean): Promise<void> {
  await client.request({ method: "DELETE", path: `/tier/${encodeURIComponent(name)}`, ...(force ? { query: { force: "true" } } : {}), expect: [204] });
}

/** GET /tier/NAME: the server checks it can reach the tier (204). */
export async function verifyTier(client: AdminClient, name: string): Promise<void> {
  await client.request({ method: "GET", path: `/tier/${encodeURIComponent(name)}`, expect: [204] });
}

export interface TierInfo {
  readonly Name: string;
  readonly Type: string;
  readonly Stats: { readonly totalSize?: number; readonly numVersions?: number; readonly numObjects?: number };
  readonly DailyStats?: unknown;
}

/** GET /tier-stats. */
export async function tierStats(client: AdminClient): Promise<TierInfo[]> {
  const list = await client.json<unknown>({ method: "GET", path: "/tier-stats" });
  return Array.isArray(list) ? (list as TierInfo[]) : [];
}

/** upstream tierMessage (cmd/ilm-tier-add.go) for a command that changed a tier. */
export function tierMessage(name: string, cfg?: TierConfig): Record<string, unknown> {
  if (cfg === undefined) return { status: "success", tierName: name, tierType: "", tierEndpoint: "", bucket: "" };
  const f = tierFields(cfg);
  return {
    status: "success",
    tierName: cfg.Name,
    tierType: cfg.Type,
    tierEndpoint: f.endpoint,
    bucket: f.bucket,
    ...(f.prefix ? { prefix: f.prefix } : {}),
    ...(f.region ? { region: f.region } : {}),
    ...(cfg.Type === "s3" ? { tierParams: { storageClass: f.storageClass } } : {}),
  };
}
