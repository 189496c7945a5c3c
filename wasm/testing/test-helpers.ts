import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { AppError, type Reason } from "@mc/shared/errors";
import * as assert from "uvu/assert";

/** Test-only helpers (not exported by the package). */
const vectorsRoot = new URL("../../tests/vectors/", import.meta.url);

/** Absolute path of a file under tests/vectors/. */
export function vectorPath(relative: string): string {
  return fileURLToPath(new URL(relative, vectorsRoot));
}

export function readVectorJson<T>(relative: string): T {
  return JSON.parse(readFileSync(vectorPath(relative), "utf8")) as T;
}

export function readVectorBytes(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(vectorPath(relative)));
}

export function fromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, "hex"));
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("hex");
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Runs `fn`, expecting an AppError with `reason` (and `message` or a message match). */
export function expectAppError(fn: () => unknown, reason: Reason, message?: string | RegExp): AppError {
  try {
    fn();
  } catch (error) {
    return checkAppError(error, reason, message);
  }
  assert.unreachable(`expected AppError ${reason}`);
  throw new Error("unreachable");
}

export async function expectAppErrorAsync(
  fn: () => Promise<unknown>,
  reason: Reason,
  message?: string | RegExp,
): Promise<AppError> {
  try {
    await fn();
  } catch (error) {
    return checkAppError(error, reason, message);
  }
  assert.unreachable(`expected AppError ${reason}`);
  throw new Error("unreachable");
}

function checkAppError(error: unknown, reason: Reason, message?: string | RegExp): AppError {
  if (!(error instanceof AppError)) throw error;
  assert.is(error.reason, reason, `reason of "${error.message}"`);
  if (typeof message === "string") assert.is(error.message, message);
  else if (message !== undefined) assert.match(error.message, message);
  return error;
}
