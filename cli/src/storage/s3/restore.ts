import type { Client } from "minio";
import { s3Call } from "./s3-request.js";
import { s3Escape } from "./s3-escape.js";

/** The RestoreObject body upstream's client sends (minio-go RestoreRequest with Days only). */
export const restoreBody = (days: number): string => `<RestoreRequest xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Days>${days}</Days></RestoreRequest>`;

/**
 * POST ?restore: asks for a temporary copy of an archived object (version)
 * for `days` days. 202 = started, 200 = already restored (the copy's days are
 * extended).
 */
export async function restoreObject(client: Client, bucket: string, key: string, versionId: string, days: number): Promise<void> {
  const query = `restore${versionId ? `&versionId=${s3Escape(versionId)}` : ""}`;
  await s3Call(client, { method: "POST", bucket, key, query, body: restoreBody(days), headers: { "Content-Type": "application/xml" }, expect: [200, 202] });
}
