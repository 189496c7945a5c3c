import type { AppError } from "@mc/shared";
import { mcError, s3Code } from "../errors.js";

/** S3 codes by which a server says it does not implement an API at all. */
const unsupportedCodes = new Set(["NotImplemented", "XNotImplemented", "UnsupportedOperation"]);

export function isUnsupported(err: unknown): boolean {
  return unsupportedCodes.has(s3Code(err));
}

/**
 * The error of a failed feature call. A server that does not implement the
 * feature gets one line naming it and the server's code, e.g.
 * `Unable to enable versioning: server does not support bucket versioning (NotImplemented).`;
 * the code also stays in `.error.cause.error.Code` for scripts.
 */
export function featureError(action: string, feature: string, err: unknown): AppError {
  const code = s3Code(err);
  if (unsupportedCodes.has(code)) {
    // The cause's text is printed after the message: make it the "(Code)" suffix.
    const cause = Object.assign(Object.create(Object.getPrototypeOf(err) as object) as object, err, { message: `(${code})` });
    return mcError(`Unable to ${action}: server does not support ${feature}`, cause, "unimplemented");
  }
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
