import { createHash } from "node:crypto";
import { isAppError } from "@mc/shared/errors";
import type { AdminClient, AdminResponse } from "./admin-client.js";
import type { AdminErrorCause } from "./admin-errors.js";
import { goDurationString } from "./batch.js";
import { parseReplicationXml, replicationXml, type ReplConfig } from "./replication-config.js";

/**
 * The bucket's replication through S3 (`?replication`) and MinIO's S3
 * extensions (`?replication-reset`, `?replication-reset-status`,
 * `?replication-metrics=2`), signed as minio-go signs them (every header but
 * User-Agent; Content-MD5 on a PUT). Path-style: `/BUCKET?…`.
 */
export interface S3ExtError extends Error {
  readonly code: string;
  readonly bucketname: string;
  readonly resource: string;
  readonly requestid: string;
  readonly hostid: string;
  readonly server: string;
  /** The call answered, but not with what MinIO answers (a server without the extension). */
  readonly notAnswer?: boolean;
}

/** An S3 error as minio-go's ToErrorResponse reports it (code, message and the rest readable by describeError). */
function s3Error(err: unknown): unknown {
  if (!isAppError(err) || err.details["adminApi"] === undefined) return err;
  const c = err.cause as AdminErrorCause;
  return Object.assign(new Error(c.message || c.code), { code: c.code, bucketname: c.bucketname, resource: c.resource, requestid: c.requestid, hostid: c.hostid, server: c.server, key: c.key, region: c.region });
}

async function call(client: AdminClient, method: "GET" | "PUT" | "DELETE", bucket: string, query: Record<string, string>, body?: Uint8Array, expect: readonly number[] = [200]): Promise<AdminResponse> {
  try {
    return await client.request({ method, path: `/${encodeURIComponent(bucket)}/`, absolute: true, query, expect, ...(body ? { body, headers: { "content-md5": createHash("md5").update(body).digest("base64") } } : {}) });
  } catch (err) {
    throw s3Error(err);
  }
}

/** A 2xx answer that is not what MinIO sends: the server lacks the extension. */
function notAnswer(res: AdminResponse, what: string): Error {
  return Object.assign(new Error(`${what}: the server answered HTTP ${res.status} without it`), { code: `HTTP ${res.status}`, notAnswer: true, bucketname: "", resource: "", requestid: String(res.headers["x-amz-request-id"] ?? ""), hostid: "", server: String(res.headers["server"] ?? "") });
}

/** GET ?replication; none configured (ReplicationConfigurationNotFoundError) reads as no rules, as in minio-go. */
export async function getReplication(client: AdminClient, bucket: string): Promise<ReplConfig> {
  let res: AdminResponse;
  try {
    res = await call(client, "GET", bucket, { replication: "" });
  } catch (err) {
    if ((err as { code?: string }).code === "ReplicationConfigurationNotFoundError") return { Rules: [], Role: "" };
    throw err;
  }
  const body = res.body.toString("utf8");
  if (!body.includes("<ReplicationConfiguration")) throw notAnswer(res, "no replication configuration in the answer");
  return parseReplicationXml(body);
}

/** minio-go SetBucketReplication: PUT ?replication, or DELETE ?replication when no rule is left. */
export async function putReplication(client: AdminClient, bucket: string, cfg: ReplConfig): Promise<void> {
  if (cfg.Rules.length === 0) return removeReplication(client, bucket);
  await call(client, "PUT", bucket, { replication: "" }, new TextEncoder().encode(replicationXml(cfg)));
}

export async function removeReplication(client: AdminClient, bucket: string): Promise<void> {
  await call(client, "DELETE", bucket, { replication: "" }, undefined, [200, 204]);
}

function jsonAnswer<T>(res: AdminResponse, what: string): T {
  try {
    return JSON.parse(res.body.toString("utf8")) as T;
  } catch {
    throw notAnswer(res, what);
  }
}

export interface ResyncTarget {
  arn: string;
  resetid: string;
  startTime?: string;
  endTime?: string;
  resyncStatus?: string;
  completedReplicationSize?: number;
  failedReplicationSize?: number;
  failedReplicationCount?: number;
  replicationCount?: number;
  bucket?: string;
  object?: string;
}
export interface ResyncInfo {
  target?: ResyncTarget[];
}

/** PUT ?replication-reset[&older-than=D]&arn=A&reset-id=UUID (minio-go ResetBucketReplicationOnTarget). */
export async function resetReplication(client: AdminClient, bucket: string, olderThanMs: number, arn: string, resetId: string): Promise<ResyncInfo> {
  const query: Record<string, string> = { "replication-reset": "", "reset-id": resetId };
  if (olderThanMs > 0) query["older-than"] = goDurationString(olderThanMs);
  if (arn !== "") query["arn"] = arn;
  return jsonAnswer<ResyncInfo>(await call(client, "PUT", bucket, query), "no resync information in the answer");
}

/** GET ?replication-reset-status[&arn=A]. */
export async function resyncStatus(client: AdminClient, bucket: string, arn: string): Promise<ResyncInfo> {
  const query: Record<string, string> = { "replication-reset-status": "" };
  if (arn !== "") query["arn"] = arn;
  return jsonAnswer<ResyncInfo>(await call(client, "GET", bucket, query), "no resync status in the answer");
}

/** GET ?replication-metrics=2 (minio-go GetBucketReplicationMetricsV2). */
export async function replicationMetrics(client: AdminClient, bucket: string): Promise<Record<string, unknown>> {
  return jsonAnswer<Record<string, unknown>>(await call(client, "GET", bucket, { "replication-metrics": "2" }), "no replication metrics in the answer");
}
