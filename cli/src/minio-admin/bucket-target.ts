import { mcError } from "../core/errors.js";
import type { McContext } from "../runtime/context.js";
import type { AdminClient } from "./admin-client.js";

/**
 * A bucket's remote (replication) target, madmin's `BucketTarget`, with the
 * fields a client sets. Sent as madmin-go v3 writes it: the region under
 * `region` (v2.0.7's struct tag wrote it under the key `omitempty`), and
 * without v3's server-reported status fields (isOnline, latency, …), which a
 * server fills in itself.
 */
export interface BucketTarget {
  sourcebucket: string;
  endpoint: string;
  credentials: { accessKey?: string; secretKey?: string; sessionToken?: string; expiration?: string } | null;
  targetbucket: string;
  secure: boolean;
  path: string;
  api: string;
  arn: string;
  type: string;
  region: string;
  bandwidthlimit: number;
  replicationSync: boolean;
  storageclass: string;
  /** Nanoseconds (a Go time.Duration). */
  healthCheckDuration: number;
  disableProxy: boolean;
  resetBeforeDate: string;
  resetID: string;
}

const zeroTime = "0001-01-01T00:00:00Z";

/** madmin's TargetUpdateType values, as query flags of set-remote-target?update=true. */
export const targetUpdate = { creds: "creds", sync: "sync", proxy: "proxy", bandwidth: "bandwidth", healthcheck: "healthcheck", path: "path" } as const;
export type TargetUpdate = keyof typeof targetUpdate;

/** The body Go's encoding/json writes for the target (omitempty fields left out when empty). */
export function targetJson(t: BucketTarget): Record<string, unknown> {
  const c = t.credentials;
  return {
    sourcebucket: t.sourcebucket,
    endpoint: t.endpoint,
    credentials: c === null ? null : { ...(c.accessKey ? { accessKey: c.accessKey } : {}), ...(c.secretKey ? { secretKey: c.secretKey } : {}), ...(c.sessionToken ? { sessionToken: c.sessionToken } : {}), expiration: c.expiration || zeroTime },
    targetbucket: t.targetbucket,
    secure: t.secure,
    ...(t.path ? { path: t.path } : {}),
    ...(t.api ? { api: t.api } : {}),
    ...(t.arn ? { arn: t.arn } : {}),
    type: t.type,
    ...(t.region ? { region: t.region } : {}),
    ...(t.bandwidthlimit ? { bandwidthlimit: t.bandwidthlimit } : {}),
    replicationSync: t.replicationSync,
    ...(t.storageclass ? { storageclass: t.storageclass } : {}),
    ...(t.healthCheckDuration ? { healthCheckDuration: t.healthCheckDuration } : {}),
    disableProxy: t.disableProxy,
    resetBeforeDate: t.resetBeforeDate || zeroTime,
    ...(t.resetID ? { resetID: t.resetID } : {}),
  };
}

const s = (v: unknown): string => (typeof v === "string" ? v : "");
const n = (v: unknown): number => (typeof v === "number" ? v : 0);

/** A target from list-remote-targets, cut to what madmin's Clone() keeps (the secret key never comes back). */
export function targetFromJson(v: unknown): BucketTarget {
  const o = (typeof v === "object" && v !== null ? v : {}) as Record<string, unknown>;
  const c = (typeof o["credentials"] === "object" && o["credentials"] !== null ? o["credentials"] : {}) as Record<string, unknown>;
  return {
    sourcebucket: s(o["sourcebucket"]),
    endpoint: s(o["endpoint"]),
    credentials: { accessKey: s(c["accessKey"]) },
    targetbucket: s(o["targetbucket"]),
    secure: o["secure"] === true,
    path: s(o["path"]),
    api: s(o["api"]),
    arn: s(o["arn"]),
    type: s(o["type"]),
    region: s(o["region"]) || s(o["omitempty"]),
    bandwidthlimit: n(o["bandwidthlimit"]),
    replicationSync: o["replicationSync"] === true,
    storageclass: s(o["storageclass"]),
    healthCheckDuration: n(o["healthCheckDuration"]),
    disableProxy: o["disableProxy"] === true,
    resetBeforeDate: s(o["resetBeforeDate"]),
    resetID: s(o["resetID"]),
  };
}

/** GET list-remote-targets?bucket=B&type=T (madmin ListRemoteTargets; plain JSON). */
export async function listRemoteTargets(client: AdminClient, bucket: string, type = ""): Promise<BucketTarget[]> {
  const list = await client.json<unknown>({ method: "GET", path: "/list-remote-targets", query: { bucket, type } });
  return Array.isArray(list) ? list.map(targetFromJson) : [];
}

/** PUT set-remote-target?bucket=B[&update=true&<what>=true…], the target encrypted; answers the target's ARN. */
export async function setRemoteTarget(client: AdminClient, bucket: string, target: BucketTarget, updates?: readonly TargetUpdate[]): Promise<string> {
  const query: Record<string, string> = { bucket };
  if (updates !== undefined) {
    query["update"] = "true";
    for (const u of updates) query[targetUpdate[u]] = "true";
  }
  const arn = await client.json<unknown>({ method: "PUT", path: "/set-remote-target", query, body: new TextEncoder().encode(JSON.stringify(targetJson(target))), encrypt: true });
  return typeof arn === "string" ? arn : "";
}

/** DELETE remove-remote-target?bucket=B&arn=A (204). */
export async function removeRemoteTarget(client: AdminClient, bucket: string, arn: string): Promise<void> {
  await client.request({ method: "DELETE", path: "/remove-remote-target", query: { bucket, arn }, expect: [204] });
}

export interface RemoteBucket {
  readonly accessKey: string;
  readonly secretKey: string;
  readonly url: URL;
  readonly bucket: string;
}

/**
 * `--remote-bucket`: `https://ACCESS:SECRET@host[:port]/bucket`, or
 * `ALIAS/bucket` with the alias's URL and keys (upstream extractCredentialURL).
 * Keys in the URL are taken as written (not percent-decoded), as upstream does.
 */
export function parseRemoteBucket(ctx: McContext, arg: string): RemoteBucket {
  const bad = (why: string): never => {
    throw mcError("Unable to parse remote target.", new Error(why), "invalid_argument");
  };
  let accessKey = "";
  let secretKey = "";
  let parsed = "";
  if (/^https?:\/\//.test(arg)) {
    if (/^(https?:\/\/)(.*?):(.*?):(.*?)@(.*?)$/.test(arg)) bad("temporary tokens are not allowed for remote targets");
    const m = /^(https?:\/\/)(.*?):(.*?)@(.*?)$/.exec(arg);
    if (m) {
      accessKey = m[2] ?? "";
      secretKey = m[3] ?? "";
      parsed = `${m[1] ?? ""}${m[4] ?? ""}`;
    }
  } else {
    const slash = arg.indexOf("/");
    const name = slash < 0 ? arg : arg.slice(0, slash);
    const alias = ctx.aliases.get(name);
    if (alias === undefined) bad(`No such alias \`${name}\` found.`);
    else {
      accessKey = alias.accessKey;
      secretKey = alias.secretKey;
      parsed = `${alias.url.replace(/\/+$/, "")}${slash < 0 ? "" : arg.slice(slash)}`;
    }
  }
  if (parsed === "") bad("no valid credentials were detected");
  let url: URL;
  try {
    url = new URL(parsed);
  } catch {
    return bad(`unsupported URL format \`${parsed}\``);
  }
  const bucket = url.pathname.length > 1 ? decodeURIComponent(url.pathname.slice(1)).replace(/\/+$/, "") : "";
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes("..") || /^\d+\.\d+\.\d+\.\d+$/.test(bucket)) {
    throw mcError("invalid target bucket.", new Error(bucket === "" ? "Bucket name cannot be empty" : `Bucket name contains invalid characters: \`${bucket}\``), "invalid_argument");
  }
  return { accessKey, secretKey, url, bucket };
}
