import { performance } from "node:perf_hooks";
import type { Client } from "minio";
import { s3Code } from "../../core/errors.js";
import { s3Call, serviceRegion } from "./s3-request.js";
import { child, list, parseXml, text } from "./xml.js";

/** What `admin info` can learn about a plain S3 server from S3 calls alone. */
export interface S3ServerInfo {
  readonly mode: "online";
  readonly endpoint: string;
  readonly region: string;
  /** The Server response header ("" when the server sends none). */
  readonly server: string;
  /** Round trip of one ListBuckets. */
  readonly latencyMs: number;
  readonly buckets: number;
}

export type ObjectStoreInfo = { readonly kind: "minio"; readonly info: Record<string, unknown> } | { readonly kind: "s3"; readonly info: S3ServerInfo };

/** MinIO's admin API (GET /minio/admin/v3/info, SigV4 like S3); undefined when the server has no such API. */
async function minioAdminInfo(client: Client): Promise<Record<string, unknown> | undefined> {
  try {
    const res = await s3Call(client, { method: "GET", bucket: "minio", key: "admin/v3/info", region: serviceRegion() });
    if (!String(res.headers["content-type"] ?? "").includes("json")) return undefined;
    const parsed: unknown = JSON.parse(res.body.toString("utf8"));
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch (err) {
    // Any S3 answer (NoSuchBucket, AccessDenied, …) means "not MinIO's admin API here"; network failures are real.
    if (s3Code(err) !== "") return undefined;
    throw err;
  }
}

export async function objectStoreInfo(client: Client, endpoint: string): Promise<ObjectStoreInfo> {
  const minio = await minioAdminInfo(client);
  if (minio) return { kind: "minio", info: minio };
  const started = performance.now();
  const res = await s3Call(client, { method: "GET" });
  const latencyMs = Math.round((performance.now() - started) * 10) / 10;
  const doc = parseXml(res.body.toString("utf8"), ["Bucket"]);
  const buckets = list(child(doc["ListAllMyBucketsResult"], "Buckets"), "Bucket");
  let region = serviceRegion();
  const first = text(buckets[0], "Name");
  if (first !== "") {
    const loc = await s3Call(client, { method: "GET", bucket: first, query: "location", region: serviceRegion() }).catch(() => undefined);
    const constraint = loc ? text(parseXml(loc.body.toString("utf8")), "LocationConstraint") : "";
    if (constraint !== "") region = constraint;
  }
  const server = res.headers["server"];
  return { kind: "s3", info: { mode: "online", endpoint, region, server: Array.isArray(server) ? server.join(", ") : (server ?? ""), latencyMs, buckets: buckets.length } };
}
