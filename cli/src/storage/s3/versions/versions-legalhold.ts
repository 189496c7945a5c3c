import type { Client } from "minio";
import { isNoLockSetting } from "./versions-errors.js";

const versionOpt = (versionId: string | undefined): { versionId?: string } => (versionId ? { versionId: encodeURIComponent(versionId) } : {});

export async function setLegalHold(client: Client, bucket: string, key: string, on: boolean, versionId?: string): Promise<void> {
  await client.setObjectLegalHold(bucket, key, { status: on ? "ON" : "OFF", ...versionOpt(versionId) });
}

/** "ON", "OFF" or "" (never set; RGW answers that with the bucket's no-configuration code). */
export async function getLegalHold(client: Client, bucket: string, key: string, versionId?: string): Promise<string> {
  try {
    const res = (await client.getObjectLegalHold(bucket, key, versionOpt(versionId) as { versionId: string })) as unknown;
    // The SDK's type says a string; it returns the parsed <LegalHold> element.
    const status = typeof res === "string" ? res : typeof res === "object" && res !== null ? (res as { Status?: unknown }).Status : "";
    return typeof status === "string" ? status.toUpperCase() : "";
  } catch (err) {
    if (isNoLockSetting(err)) return "";
    throw err;
  }
}
