import type { AppError } from "@mc/shared";
import { mcError, s3Code } from "../../core/errors.js";

/** Codes a server answers with when it lacks an API (rather than rejecting our input). */
const unsupportedCodes = new Set(["NotImplemented", "XNotImplemented", "MethodNotAllowed", "UnsupportedOperation", "NotSupported"]);

export function isUnsupported(err: unknown, extra: readonly string[] = []): boolean {
  const code = s3Code(err);
  return unsupportedCodes.has(code) || extra.includes(code);
}

/**
 * The one-line answer for a feature the server does not have: it names the
 * feature and the server's error code, and scripts still find the code in
 * `.error.cause.error.Code`.
 */
export function unsupportedError(feature: string, code: string, original?: unknown): AppError {
  const fields = typeof original === "object" && original !== null ? (original as Record<string, unknown>) : {};
  const cause = { ...fields, code, message: `Server error code: ${code}` };
  return mcError(`${feature} is not supported by this server.`, cause, "unimplemented");
}

/** The same line for a server that answers a feature's request as if it were another one (no error code to name). */
export function unsupportedAnswer(feature: string, request: string, answer: string): AppError {
  return mcError(`${feature} is not supported by this server.`, new Error(`Server error code: none; it answered ${request} with ${answer}`), "unimplemented");
}
