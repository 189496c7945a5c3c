import { performance } from "node:perf_hooks";
import type { Client } from "minio";
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

/** `admin info` of a server without MinIO's admin API: one ListBuckets, timed, and the first bucket's location. */
export async function s3ServerInfo(client: Client, endpoint: string): Promise<S3ServerInfo> {
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
  return { mode: "online", endpoint, region, server: Array.isArray(server) ? server.join(", ") : (server ?? ""), latencyMs, buckets: buckets.length };
}
