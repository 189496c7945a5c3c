import { isAppError } from "@mc/shared";
import { getBucketEncryption } from "./bucket-encryption.js";
import { getLifecycle, type JsonObject } from "./lifecycle.js";
import { notificationJson, replicationJson, type ReplicationJson } from "./bucket-stat-json.js";
import { getNotificationXml, parseNotifications } from "./notification.js";
import { permOf } from "../versions/versions-policy.js";
import { readPolicy } from "../versions/versions-policy-io.js";
import { getBucketLock } from "../versions/versions-retention.js";
import { readTags } from "../versions/versions-tags.js";
import { isUnsupported } from "../unsupported.js";
import type { S3Target } from "../versions-target.js";

/** What `mc stat ALIAS/BUCKET` shows, in the order of contracts/mc.md §5. */
export interface BucketStat {
  readonly Versioning: { readonly status: string; readonly MFADelete: string };
  readonly Encryption: { readonly algorithm?: string; readonly keyId?: string };
  readonly ObjectLock: { readonly enabled: string; readonly mode: string; readonly validity: string };
  readonly Replication: { readonly enabled: boolean; readonly config: ReplicationJson };
  readonly Policy: { readonly type: string; readonly policy?: string };
  readonly location: string;
  readonly tagging?: Readonly<Record<string, string>>;
  readonly ilm?: { readonly config: { readonly Rules: readonly JsonObject[] } };
  readonly notification?: { readonly config: Record<string, unknown> };
}

// Codes for "this bucket has no such configuration" or "this server has no such API".
const absentCodes = ["InvalidArgument", "InvalidRequest", "ObjectLockConfigurationNotFoundError", "ReplicationConfigurationNotFoundError", "NoSuchTagSet", "NoSuchBucketPolicy", "NoSuchLifecycleConfiguration"];

/**
 * A bucket property the server may lack: its absence (or "not supported")
 * reads as "not set". Anything else (access denied, a lost connection) fails
 * the stat, so a property is never shown as off merely because it was unreadable.
 */
async function optional<T>(read: () => Promise<T>, otherwise: T): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if ((isAppError(err) && err.reason === "unimplemented") || isUnsupported(err, absentCodes)) return otherwise;
    throw err;
  }
}

/** Enabled only with at least one rule: RGW answers an empty configuration for a bucket without one. */
async function replicationOf(t: S3Target): Promise<BucketStat["Replication"]> {
  const config = (await t.client.getBucketReplication(t.bucket)) as unknown as { ReplicationConfiguration?: { rules?: unknown[]; role?: unknown } };
  const rules = (config.ReplicationConfiguration?.rules ?? []).filter((r) => r !== null && r !== undefined);
  const role = config.ReplicationConfiguration?.role;
  return { enabled: rules.length > 0, config: replicationJson(rules, typeof role === "string" ? role : "") };
}

/** The notification configuration, or undefined when it has none. */
async function notificationOf(t: S3Target): Promise<BucketStat["notification"]> {
  const xml = await getNotificationXml(t.client, t.bucket);
  const entries = parseNotifications(xml);
  return entries.length > 0 ? { config: notificationJson(entries, xml) } : undefined;
}

const noReplication: BucketStat["Replication"] = { enabled: false, config: replicationJson([], "") };

/**
 * Every property of the bucket, read in parallel. Servers differ in what they
 * support (RGW has no bucket encryption nor replication): each missing piece
 * is shown as not set rather than failing the whole stat. Usage figures need
 * the MinIO admin API and are left out; counting would mean listing the bucket.
 */
export async function bucketStat(t: S3Target): Promise<BucketStat> {
  const { client, bucket } = t;
  const [versioning, encryption, lock, replication, policy, location, tags, ilm, notification] = await Promise.all([
    optional(async () => (await client.getBucketVersioning(bucket)) as unknown, undefined),
    optional(() => getBucketEncryption(client, bucket), { algorithm: "", keyId: "" }),
    optional(() => getBucketLock(client, bucket), { enabled: false, mode: "", validity: "" }),
    optional(() => replicationOf(t), noReplication),
    optional(() => readPolicy(t), undefined),
    optional(() => client.getBucketRegionAsync(bucket), ""),
    optional(() => readTags({ ...t, key: "" }), {}),
    optional(() => getLifecycle(client, bucket), { Rules: [] }),
    optional(() => notificationOf(t), undefined),
  ]);
  const v = typeof versioning === "object" && versioning !== null ? (versioning as Record<string, unknown>) : {};
  const str = (x: unknown): string => (typeof x === "string" ? x : "");
  const statements = policy?.Statement.length ?? 0;
  const perm = policy ? permOf(policy, bucket, "") : "private";
  return {
    Versioning: { status: str(v["Status"]), MFADelete: str(v["MFADelete"] ?? v["MfaDelete"]) },
    Encryption: encryption.algorithm ? { algorithm: encryption.algorithm, keyId: encryption.keyId } : {},
    ObjectLock: { enabled: lock.enabled ? "Enabled" : "", mode: lock.mode, validity: lock.validity },
    Replication: replication,
    Policy: statements === 0 ? { type: "none" } : { type: perm === "private" ? "custom" : perm, policy: JSON.stringify(policy) },
    location,
    ...(Object.keys(tags).length > 0 ? { tagging: tags } : {}),
    ...(ilm.Rules.length > 0 ? { ilm: { config: ilm } } : {}),
    ...(notification ? { notification } : {}),
  };
}

/** The `Properties:` block of the text form. */
export function bucketStatLines(s: BucketStat): string[] {
  const enabled = (on: boolean, detail = ""): string => (on ? `Enabled${detail ? ` (${detail})` : ""}` : "Disabled");
  return [
    "Properties:",
    `  Versioning: ${s.Versioning.status || "Un-versioned"}`,
    `  Location: ${s.location || "-"}`,
    `  Anonymous: ${enabled(s.Policy.type !== "none", s.Policy.type)}`,
    `  ILM: ${enabled(s.ilm !== undefined)}`,
    `  Encryption: ${enabled(s.Encryption.algorithm !== undefined, s.Encryption.algorithm)}`,
    `  Object Lock: ${enabled(s.ObjectLock.enabled === "Enabled", [s.ObjectLock.mode, s.ObjectLock.validity].filter(Boolean).join(" "))}`,
    `  Tagging: ${s.tagging ? Object.entries(s.tagging).map(([k, val]) => `${k}=${val}`).join(", ") : "Disabled"}`,
    `  Notification: ${enabled(s.notification !== undefined)}`,
  ];
}

