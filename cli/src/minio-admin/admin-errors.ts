import { AppError, isAppError, type Reason } from "@mc/shared/errors";
import { explainedError, mcError } from "../core/errors.js";
import { child, parseXml, text } from "../storage/s3/xml.js";

/** What an admin error answer says (madmin `ErrorResponse`, JSON from MinIO, S3 XML from other servers). */
export interface AdminErrorCause {
  readonly code: string;
  readonly message: string;
  readonly resource: string;
  readonly requestid: string;
  readonly hostid: string;
  readonly bucketname: string;
  readonly key: string;
  readonly region: string;
  readonly server: string;
}

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Uint8Array;
}

const reasons: Readonly<Record<number, Reason>> = { 400: "invalid_argument", 401: "unauthenticated", 403: "permission_denied", 404: "not_found", 409: "already_exists", 501: "unimplemented", 503: "unavailable" };

function field(o: Record<string, unknown>, name: string): string {
  for (const [k, v] of Object.entries(o)) if (k.toLowerCase() === name.toLowerCase() && typeof v === "string") return v;
  return "";
}

/**
 * The error for an answer that is not a success. MinIO's admin API answers
 * errors in JSON; an S3 XML error means the request reached a server without
 * that API (Ceph RGW takes `/minio/admin/v3/…` for an object in a bucket
 * named `minio`), and so does a success that is not the JSON asked for.
 */
export function adminHttpError(res: Answer, parseFailure?: unknown): AppError {
  const bodyText = Buffer.from(res.body).toString("utf8");
  const server = String(res.headers["server"] ?? "");
  if (parseFailure === undefined) {
    try {
      const parsed: unknown = JSON.parse(bodyText);
      if (typeof parsed === "object" && parsed !== null && field(parsed as Record<string, unknown>, "Code") !== "") {
        const o = parsed as Record<string, unknown>;
        const cause = causeOf(o, server);
        return new AppError(reasons[res.status] ?? "failed_precondition", cause.message || cause.code, { cause, details: { adminApi: "present", code: cause.code } });
      }
    } catch {
      // Not JSON: maybe S3 XML, below.
    }
  }
  let code = "";
  let xmlFields: Record<string, unknown> = {};
  try {
    const error = child(parseXml(bodyText), "Error");
    code = text(error, "Code");
    xmlFields = { Code: code, Message: text(error, "Message"), Resource: text(error, "Resource"), RequestId: text(error, "RequestId"), HostId: text(error, "HostId"), BucketName: text(error, "BucketName"), Key: text(error, "Key") };
  } catch {
    // Neither JSON nor XML.
  }
  if (code === "") code = res.status >= 200 && res.status < 300 ? `HTTP ${res.status} without a MinIO admin answer` : `HTTP ${res.status}`;
  const cause = { ...causeOf(xmlFields, server), code };
  return new AppError("unimplemented", cause.message || code, { cause, details: { adminApi: "missing", code } });
}

function causeOf(o: Record<string, unknown>, server: string): AdminErrorCause {
  return {
    code: field(o, "Code"),
    message: field(o, "Message"),
    resource: field(o, "Resource"),
    requestid: field(o, "RequestId"),
    hostid: field(o, "HostId"),
    bucketname: field(o, "BucketName"),
    key: field(o, "Key"),
    region: field(o, "Region"),
    server,
  };
}

/** True when the error says the server has no MinIO admin API. */
export function isAdminApiMissing(err: unknown): boolean {
  return isAppError(err) && err.details["adminApi"] === "missing";
}

/**
 * The error an admin command reports: `action` is upstream's fatal message
 * ("Unable to get bucket quota"); `capability` names what a non-MinIO server
 * lacks, in one line with the server's error code.
 */
export function adminFailure(action: string, capability: string, err: unknown, api = "admin API"): AppError {
  // An Error carrying the fields: scripts find them in `.error.cause.error` (an S3-style code), the text in `.cause.message`.
  const withFields = (cause: AdminErrorCause, message: string): Error => Object.assign(new Error(message), { ...cause, message });
  if (isAppError(err) && err.details["adminApi"] === "missing") {
    const cause = err.cause as AdminErrorCause;
    return explainedError(`${capability} needs MinIO's ${api}, which this server does not have.`, withFields(cause, `Server error code: ${cause.code}`), "unimplemented");
  }
  if (isAppError(err) && err.details["adminApi"] === "present") {
    const cause = err.cause as AdminErrorCause;
    return explainedError(`${action}.`, withFields(cause, cause.message || cause.code), err.reason);
  }
  return mcError(`${action}.`, err, isAppError(err) ? err.reason : "unavailable");
}
