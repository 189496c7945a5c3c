import type { AdminClient, AdminResponse } from "./admin-client.js";
import { adminHttpError } from "./admin-errors.js";

/** What a server without MinIO's health API lacks, for the one-line failure. */
export const healthCapability = "The cluster health check";

/** madmin `HealthResult`, in real mc's `ready --json` names. */
export interface HealthResult {
  readonly healthy: boolean;
  readonly maintenanceMode: boolean;
  readonly writeQuorum: number;
  readonly healingDrives: number;
}

// An S3 XML error (Ceph RGW reads /minio/health/… as an object of a bucket named `minio`) is no health answer.
function isS3Error(res: AdminResponse): boolean {
  return /^\s*(<\?xml[^>]*>\s*)?<Error>/.test(res.body.toString("utf8"));
}

function count(res: AdminResponse, header: string): number {
  const v = res.headers[header];
  const n = Number(Array.isArray(v) ? v[0] : v);
  return Number.isInteger(n) ? n : 0;
}

/**
 * madmin `AnonymousClient.Healthy`: an unsigned GET of /minio/health/cluster
 * (`?maintenance=true` with `maintenance`) or /minio/health/cluster/read.
 * 200 is healthy, 412 maintenance mode, anything else not healthy; the
 * write quorum and healing drives come from MinIO's headers.
 */
export async function clusterHealth(client: AdminClient, opts: { readonly clusterRead: boolean; readonly maintenance: boolean }): Promise<HealthResult> {
  const path = opts.clusterRead ? "/minio/health/cluster/read" : "/minio/health/cluster";
  const query = !opts.clusterRead && opts.maintenance ? { maintenance: "true" } : undefined;
  const res = await client.request({ method: "GET", path, absolute: true, anonymous: true, ...(query ? { query } : {}), expect: allStatuses });
  if (isS3Error(res)) throw adminHttpError(res);
  const headers = opts.clusterRead ? { writeQuorum: 0, healingDrives: 0 } : { writeQuorum: count(res, "x-minio-write-quorum"), healingDrives: count(res, "x-minio-healing-drives") };
  return { healthy: res.status === 200, maintenanceMode: !opts.clusterRead && res.status === 412, ...headers };
}

/** madmin `Alive`: an unsigned GET of /minio/health/live on `origin`; online when 200 and not `x-minio-server-status: offline`. */
export async function nodeAlive(client: AdminClient, origin: string): Promise<boolean> {
  const res = await client.request({ method: "GET", path: "/minio/health/live", absolute: true, anonymous: true, origin, expect: allStatuses });
  return res.status === 200 && res.headers["x-minio-server-status"] !== "offline";
}

const allStatuses: readonly number[] = Array.from({ length: 500 }, (_, i) => i + 100);
