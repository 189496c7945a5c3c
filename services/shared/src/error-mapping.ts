import { Code, ConnectError } from "@connectrpc/connect";
import { AppError, isReason, toAppError, type Reason } from "./app-error.js";

interface Mapping {
  readonly code: Code;
  readonly http: number;
}

/**
 * The only table from reasons to Connect codes and HTTP statuses. HTTP
 * statuses follow connect-es `codeToHttpStatus` except for the REST-only
 * 405, 413, 416 and 502.
 */
export const errorTable: Readonly<Record<Reason, Mapping>> = {
  invalid_argument: { code: Code.InvalidArgument, http: 400 },
  failed_precondition: { code: Code.FailedPrecondition, http: 400 },
  unauthenticated: { code: Code.Unauthenticated, http: 401 },
  permission_denied: { code: Code.PermissionDenied, http: 403 },
  not_found: { code: Code.NotFound, http: 404 },
  method_not_allowed: { code: Code.Unimplemented, http: 405 },
  already_exists: { code: Code.AlreadyExists, http: 409 },
  aborted: { code: Code.Aborted, http: 409 },
  payload_too_large: { code: Code.ResourceExhausted, http: 413 },
  range_not_satisfiable: { code: Code.OutOfRange, http: 416 },
  resource_exhausted: { code: Code.ResourceExhausted, http: 429 },
  internal: { code: Code.Internal, http: 500 },
  unimplemented: { code: Code.Unimplemented, http: 501 },
  bad_gateway: { code: Code.Unavailable, http: 502 },
  unavailable: { code: Code.Unavailable, http: 503 },
  deadline_exceeded: { code: Code.DeadlineExceeded, http: 504 },
};

/** Where several reasons share a code, the one a code maps back to. */
const reasonOfCode: Readonly<Record<Code, Reason>> = {
  [Code.Canceled]: "aborted",
  [Code.Unknown]: "internal",
  [Code.InvalidArgument]: "invalid_argument",
  [Code.DeadlineExceeded]: "deadline_exceeded",
  [Code.NotFound]: "not_found",
  [Code.AlreadyExists]: "already_exists",
  [Code.PermissionDenied]: "permission_denied",
  [Code.ResourceExhausted]: "resource_exhausted",
  [Code.FailedPrecondition]: "failed_precondition",
  [Code.Aborted]: "aborted",
  [Code.OutOfRange]: "range_not_satisfiable",
  [Code.Unimplemented]: "unimplemented",
  [Code.Internal]: "internal",
  [Code.Unavailable]: "unavailable",
  [Code.DataLoss]: "internal",
  [Code.Unauthenticated]: "unauthenticated",
};

/** Metadata key that carries the exact reason across a Connect hop. */
export const reasonHeader = "x-app-reason";

export function httpStatusOf(reason: Reason): number {
  return errorTable[reason].http;
}

/** AppError (or anything thrown) to a ConnectError that is safe to send. */
export function toConnectError(value: unknown): ConnectError {
  if (value instanceof ConnectError) return value;
  const err = toAppError(value);
  const metadata = new Headers({ [reasonHeader]: err.reason });
  for (const [k, v] of Object.entries(err.details)) metadata.set(`x-app-${k}`, v);
  return new ConnectError(err.message, errorTable[err.reason].code, metadata);
}

/**
 * ConnectError back to AppError, keeping the exact reason when the peer sent
 * it (so 413 and 429 survive a hop that only carries ResourceExhausted).
 */
export function fromConnectError(value: unknown): AppError {
  if (value instanceof AppError) return value;
  if (!(value instanceof ConnectError)) return toAppError(value);
  const sent = value.metadata.get(reasonHeader);
  const reason = sent !== null && isReason(sent) ? sent : reasonOfCode[value.code];
  return new AppError(reason, value.rawMessage, { cause: value });
}

/** HTTP status of any error as REST answers it. */
export function httpStatusOfError(value: unknown): number {
  return httpStatusOf(fromConnectError(value).reason);
}
