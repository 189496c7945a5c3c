import type { Client } from "minio";

/**
 * DeleteObject with `x-amz-bypass-governance-retention` (`rm --bypass`): removes
 * a version under governance retention. Compliance retention and legal holds
 * still refuse it.
 */
export async function removeBypassingGovernance(client: Client, bucket: string, key: string, versionId?: string): Promise<{ deleteMarker: boolean; versionId: string }> {
  const query = versionId ? `versionId=${encodeURIComponent(versionId)}` : "";
  const headers = { "x-amz-bypass-governance-retention": "true" };
  const res = await client.makeRequestAsync({ method: "DELETE", bucketName: bucket, objectName: key, query, headers }, "", [200, 204]);
  res.resume();
  return { deleteMarker: res.headers["x-amz-delete-marker"] === "true", versionId: String(res.headers["x-amz-version-id"] ?? "") };
}
