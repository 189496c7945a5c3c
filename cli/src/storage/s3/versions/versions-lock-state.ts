import type { Client } from "minio";
import { s3Code } from "../../../core/errors.js";
import { isLockBlocked } from "./versions-errors.js";
import { getLegalHold } from "./versions-legalhold.js";
import { getRetention } from "./versions-retention.js";

/**
 * Whether a refused delete was refused by object lock. The server's text may
 * say so, but RGW sometimes answers a bare AccessDenied: then the version's
 * own lock state decides (a legal hold, or a retention date still ahead),
 * rather than the wording of the error.
 */
export async function deleteBlockedByLock(client: Client, bucket: string, key: string, versionId: string | undefined, err: unknown): Promise<boolean> {
  if (isLockBlocked(err)) return true;
  if (s3Code(err) !== "AccessDenied" || !versionId) return false;
  try {
    if ((await getLegalHold(client, bucket, key, versionId)) === "ON") return true;
    const r = await getRetention(client, bucket, key, versionId);
    return r.until !== "" && new Date(r.until).getTime() > Date.now();
  } catch {
    // Not allowed to read the lock state either: the plain AccessDenied stands.
    return false;
  }
}
