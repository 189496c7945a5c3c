import { AppError, isAppError, type Reason } from "@mc/shared/errors";

/** The S3 error fields scripts read from `.error.cause.error` (minio-go api-error-response.go). */
export interface S3ErrorFields {
  Code: string;
  Message: string;
  BucketName: string;
  Key: string;
  Resource: string;
  RequestID: string;
  HostID: string;
  Region: string;
  Server: string;
}

export interface DescribedError {
  readonly message: string;
  readonly causeMessage: string;
  readonly causeError: S3ErrorFields | Record<string, never>;
}

/** A failure of an mc command: AppError is the one error type; the cause keeps what went wrong below us. */
export function mcError(message: string, cause?: unknown, reason: Reason = "failed_precondition"): AppError {
  return new AppError(reason, message, cause === undefined ? {} : { cause });
}

// Errors whose message already says what the server's code means: their cause
// prints the server's own text, not the generic advice for that code.
const explained = new WeakSet<AppError>();

/** Like mcError, for a message that already explains the server's code (e.g. a WORM-protected delete answered AccessDenied). */
export function explainedError(message: string, cause: unknown, reason: Reason = "failed_precondition"): AppError {
  const err = mcError(message, cause, reason);
  explained.add(err);
  return err;
}

export function usageError(message: string): AppError {
  return new AppError("invalid_argument", message, { details: { usage: "true" } });
}

const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");

/** The S3 error code of anything thrown by the SDK or by our backends ("" when none). */
export function s3Code(err: unknown): string {
  if (typeof err !== "object" || err === null) return "";
  const code = (err as { code?: unknown }).code;
  // S3 codes are CamelCase, some with digits (XAmzContentSHA256Mismatch); errno codes (ECONNREFUSED) are not S3 errors.
  return typeof code === "string" && /^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$/.test(code) ? code : "";
}

/** A sentence a person can act on, per S3 code; RGW often sends an empty <Message>, so never rely on it. */
const advice: Readonly<Record<string, string>> = {
  NoSuchBucket: "The specified bucket does not exist.",
  NoSuchKey: "Object does not exist.",
  NotFound: "Object does not exist.",
  NoSuchUpload: "The multipart upload does not exist; it may have been aborted or completed.",
  SignatureDoesNotMatch:
    "The request signature we calculated does not match the signature you provided. Check your secret key for this alias.",
  InvalidAccessKeyId: "The access key ID you provided does not exist in our records. Check the access key for this alias.",
  AccessDenied: "Access Denied. Check that the keys belong to a user with permission for this request.",
  BucketNotEmpty: "The bucket you tried to delete is not empty. Use `--force` to remove it with its contents.",
  BucketAlreadyExists: "The requested bucket name is not available. Choose another name.",
  BucketAlreadyOwnedByYou: "Your previous request to create the named bucket succeeded and you already own it. Use `-p` to ignore this.",
  InvalidBucketName: "The specified bucket is not valid.",
  EntityTooSmall: "Your proposed upload is smaller than the minimum allowed object size.",
  RequestTimeTooSkewed: "The difference between the request time and the server's time is too large. Check the system clock.",
  XAmzContentSHA256Mismatch: "The data the server received does not match the SHA-256 signed for it: it was damaged on the way, and the server refused it.",
  BadDigest: "The data the server received does not match its Content-MD5: it was damaged on the way, and the server refused it.",
  InvalidDigest: "The Content-MD5 sent with the data is not valid.",
  SlowDown: "The server asks to reduce the request rate. Retry later.",
  ServiceUnavailable: "The server is unavailable. Retry later.",
};

function s3Fields(err: object): S3ErrorFields {
  const e = err as Record<string, unknown>;
  return {
    Code: str(e["code"]),
    Message: str(e["message"]) || (advice[str(e["code"])] ?? ""),
    BucketName: str(e["bucketname"] ?? e["bucketName"]),
    Key: str(e["key"]),
    Resource: str(e["resource"]),
    RequestID: str(e["requestid"] ?? e["amzRequestid"]),
    HostID: str(e["hostid"] ?? e["amzId2"]),
    Region: str(e["region"] ?? e["amzBucketRegion"]),
    Server: str(e["server"]),
  };
}

/** Text for a cause that is not an S3 error: connection failures get advice too. */
function causeText(err: unknown): string {
  if (!(err instanceof Error)) return str(err);
  const code = (err as { code?: unknown }).code;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EHOSTUNREACH" || code === "ECONNRESET") {
    return `${err.message.replace(/\.$/, "")}. Check the URL of the alias and that the server is running and reachable.`;
  }
  if (typeof code === "string" && ["DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY"].includes(code)) {
    // Go's wording, which scripts written for the original client look for.
    return `${err.message}: x509: certificate signed by unknown authority`;
  }
  return (typeof code === "string" ? systemText[code] : undefined) ?? err.message;
}

/** The system's own words for the file errors a person can act on (Node's text adds the syscall: `ENOSPC: no space left on device, write`). */
const systemText: Readonly<Record<string, string>> = {
  ENOENT: "No such file or directory.",
  EACCES: "Permission denied.",
  EPERM: "Permission denied.",
  EISDIR: "Is a directory.",
  ENOTDIR: "Not a directory.",
  ENOTEMPTY: "Directory not empty.",
  ENOSPC: "No space left on device.",
  EDQUOT: "Disk quota exceeded.",
  EROFS: "Read-only file system.",
  EFBIG: "File too large.",
  ENAMETOOLONG: "File name too long.",
  EMFILE: "Too many open files.",
  EIO: "Input/output error.",
};

/** Something a person can read for an error that brought no message of its own (`new Error()`, a thrown string ""). */
function nonEmpty(message: string, err: unknown): string {
  if (message.trim() !== "") return message;
  const code = typeof err === "object" && err !== null ? str((err as { code?: unknown }).code) : "";
  const name = err instanceof Error && err.name !== "Error" ? err.name : "";
  return `Unexpected error${code || name ? ` (${code || name})` : ""}.`;
}

export function describeError(err: unknown): DescribedError {
  const d = describe(err);
  return { ...d, message: nonEmpty(d.message, err) };
}

function describe(err: unknown): DescribedError {
  const app = isAppError(err) ? err : undefined;
  if (!app && s3Code(err) !== "") {
    // A raw S3 error that no command wrapped: its code still reaches scripts.
    const fields = s3Fields(err as object);
    const text = advice[fields.Code] ?? (fields.Message || fields.Code);
    return { message: text, causeMessage: text, causeError: fields };
  }
  const message = app ? app.message : err instanceof Error ? err.message : String(err);
  const cause = app ? app.cause : undefined;
  if (cause === undefined) return { message, causeMessage: "", causeError: {} };
  const code = s3Code(cause);
  if (code !== "") {
    const fields = s3Fields(cause as object);
    const generic = app && explained.has(app) ? undefined : advice[code];
    return { message, causeMessage: generic ?? (fields.Message || code), causeError: fields };
  }
  if (isAppError(cause)) return { message, causeMessage: cause.message, causeError: {} };
  return { message, causeMessage: causeText(cause), causeError: {} };
}
