import type { AppError } from "@mc/shared";
import { mcError, s3Code } from "../../../core/errors.js";
import { isUnsupported, unsupportedError } from "../unsupported.js";

/**
 * The error of a failed feature call. A server that does not implement the
 * feature gets the one line every `mc` feature uses (unsupported.ts), naming
 * the feature and the server's code; other failures read `Unable to …`.
 */
export function featureError(action: string, feature: string, err: unknown): AppError {
  if (isUnsupported(err)) return unsupportedError(`${feature.charAt(0).toUpperCase()}${feature.slice(1)}`, s3Code(err), err);
  return mcError(`Unable to ${action}.`, err);
}

/** RGW answers a delete blocked by retention or legal hold with AccessDenied ("forbidden by object lock"); S3 with AccessDenied, MinIO with ObjectLocked. */
export function isLockBlocked(err: unknown): boolean {
  const code = s3Code(err);
  if (code === "ObjectLocked") return true;
  const message = err instanceof Error ? err.message : "";
  return code === "AccessDenied" && /object lock|WORM|retention|legal hold/i.test(message);
}

/** Missing lock settings: RGW reports "no retention/legal hold on this object" with the bucket's configuration code. */
export function isNoLockSetting(err: unknown): boolean {
  return ["ObjectLockConfigurationNotFoundError", "NoSuchObjectLockConfiguration"].includes(s3Code(err));
}
