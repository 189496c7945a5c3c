import type { AdminClient } from "./admin-client.js";
import { isAdminApiMissing } from "./admin-errors.js";

/**
 * madmin `ServerInfo`: a signed GET of /minio/admin/v3/info, answered with
 * the InfoMessage as plain JSON. Undefined when the server has no MinIO admin
 * API (an S3 error instead), so `admin info` falls back to S3 calls; MinIO's
 * own errors (access denied, …) and network failures are thrown.
 */
export async function minioServerInfo(client: AdminClient): Promise<Record<string, unknown> | undefined> {
  try {
    const info = await client.json<unknown>({ method: "GET", path: "/info" });
    return typeof info === "object" && info !== null && !Array.isArray(info) ? (info as Record<string, unknown>) : undefined;
  } catch (err) {
    if (isAdminApiMissing(err)) return undefined;
    throw err;
  }
}
