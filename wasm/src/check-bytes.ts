import { AppError } from "@mc/shared/errors";

/**
 * Argument checks shared by the primitives. They run before libsodium so that
 * a caller sees "key must be 32 bytes, got 31" instead of libsodium's terse
 * "invalid key length".
 */
export function requireBytes(name: string, value: unknown, length: number): Uint8Array {
  const bytes = requireUint8Array(name, value);
  if (bytes.length !== length) {
    throw new AppError("invalid_argument", `${name} must be ${length} bytes, got ${bytes.length}`);
  }
  return bytes;
}

export function requireBytesInRange(name: string, value: unknown, min: number, max: number): Uint8Array {
  const bytes = requireUint8Array(name, value);
  if (bytes.length < min || bytes.length > max) {
    throw new AppError("invalid_argument", `${name} must be ${min} to ${max} bytes, got ${bytes.length}`);
  }
  return bytes;
}

export function requireUint8Array(name: string, value: unknown): Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new AppError("invalid_argument", `${name} must be a Uint8Array`);
  }
  return value;
}

export function requireIntegerInRange(name: string, value: number, min: number, max: number, unit = ""): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const suffix = unit === "" ? "" : ` ${unit}`;
    throw new AppError("invalid_argument", `${name} must be an integer from ${min} to ${max}${suffix}, got ${String(value)}`);
  }
  return value;
}

/** UTF-8 for strings; byte arrays pass through untouched (no copy). */
export function toBytes(name: string, value: Uint8Array | string): Uint8Array {
  if (typeof value === "string") return new TextEncoder().encode(value);
  return requireUint8Array(name, value);
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
