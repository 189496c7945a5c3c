import { AppError } from "@mc/shared/errors";
import type { ApplyResult } from "./state.js";

/** Turns a failed apply into the contract's error; returns the result otherwise. */
export function orThrow(result: ApplyResult): ApplyResult & { ok: true } {
  if (!result.ok) throw new AppError(result.reason, result.message);
  return result;
}

export function invalidBody(): AppError {
  return new AppError("invalid_argument", "invalid request body");
}
