/**
 * The one error type of the project. Domain code throws it with a reason from
 * a closed set; only the edges (Connect impls, REST, NATS client, CLI) convert
 * it, through the single table in `error-mapping.ts`.
 */
export const reasons = [
  "invalid_argument",
  "failed_precondition",
  "unauthenticated",
  "permission_denied",
  "not_found",
  "method_not_allowed",
  "already_exists",
  "aborted",
  "payload_too_large",
  "range_not_satisfiable",
  "resource_exhausted",
  "internal",
  "unimplemented",
  "bad_gateway",
  "unavailable",
  "deadline_exceeded",
] as const;

export type Reason = (typeof reasons)[number];

export interface AppErrorOptions {
  /** Logged at the edge, never sent to a client. */
  readonly cause?: unknown;
  /** Small, client-safe key/value details (for example a field name). */
  readonly details?: Readonly<Record<string, string>>;
}

export class AppError extends Error {
  override readonly name = "AppError";
  readonly reason: Reason;
  readonly details: Readonly<Record<string, string>>;

  constructor(reason: Reason, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.details = options.details ?? {};
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

export function isReason(value: string): value is Reason {
  return (reasons as readonly string[]).includes(value);
}

/**
 * Wraps anything thrown into an AppError. Unknown errors become `internal`
 * with the fixed message "internal error": their text may hold paths, keys or
 * stack fragments, so it is kept only as the (logged, never sent) cause.
 */
export function toAppError(value: unknown): AppError {
  if (isAppError(value)) return value;
  return new AppError("internal", "internal error", { cause: value });
}
