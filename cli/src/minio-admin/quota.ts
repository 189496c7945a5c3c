import { isAppError } from "@mc/shared/errors";
import type { AdminClient } from "./admin-client.js";

/** What a server without MinIO's admin API lacks, for the one-line failure. */
export const quotaCapability = "Bucket quota";

/**
 * The bucket's quota (GET get-bucket-quota?bucket=B), every field the server
 * sent kept, so that `quota set` writes back what it did not change (newer
 * servers know more fields than madmin v2.0.7's `quota` and `quotatype`).
 * With `orEmpty`, a bucket without a quota reads as `{}`.
 */
export async function getQuota(client: AdminClient, bucket: string, orEmpty: boolean): Promise<Record<string, unknown>> {
  try {
    const q = await client.json<unknown>({ method: "GET", path: "/get-bucket-quota", query: { bucket } });
    return typeof q === "object" && q !== null && !Array.isArray(q) ? (q as Record<string, unknown>) : {};
  } catch (err) {
    if (orEmpty && isAppError(err) && err.details["code"] === "XMinioAdminNoSuchQuotaConfiguration") return {};
    throw err;
  }
}

/** PUT set-bucket-quota?bucket=B with the quota as JSON (madmin `SetBucketQuota`; not encrypted). */
export async function putQuota(client: AdminClient, bucket: string, quota: Record<string, unknown>): Promise<void> {
  await client.request({ method: "PUT", path: "/set-bucket-quota", query: { bucket }, body: new TextEncoder().encode(JSON.stringify(quota)) });
}
