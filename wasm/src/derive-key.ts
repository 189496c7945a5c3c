import { AppError } from "@mc/shared/errors";
import { requireBytes, requireIntegerInRange, toBytes } from "./check-bytes.js";
import { lib } from "./init-crypto.js";

/** libsodium's crypto_pwhash takes exactly 16 bytes of salt. */
export const argon2idSaltLength = 16;
/** Largest memory accepted: libsodium.js's wasm heap cannot grow to 2 GiB. */
export const argon2idMaxMemoryKiB = 1024 * 1024;

export interface Argon2idParams {
  /** Memory in KiB, Argon2's `m` (65536 = 64 MiB); 8 KiB to 1 GiB. */
  readonly memoryKiB: number;
  /** Passes over memory, Argon2's `t` (libsodium's opslimit); at least 1. */
  readonly iterations: number;
  /** Length of the derived key in bytes, 16..1024. */
  readonly keyLength: number;
}

/**
 * Argon2id (version 0x13, one lane) through libsodium `crypto_pwhash` with
 * ALG_ARGON2ID13. Strings are hashed as UTF-8. Same output as the reference
 * Argon2id with p = 1, no secret and no associated data. Blocks the thread for
 * the whole computation, and the wasm heap keeps the memory it grew to.
 */
export function deriveKey(password: Uint8Array | string, salt: Uint8Array, params: Argon2idParams): Uint8Array {
  const sodium = lib();
  const passwordBytes = toBytes("password", password);
  requireBytes("salt", salt, argon2idSaltLength);
  const memoryKiB = requireIntegerInRange("Argon2id memory", params.memoryKiB, 8, argon2idMaxMemoryKiB, "KiB");
  const iterations = requireIntegerInRange("Argon2id iterations", params.iterations, 1, 0xffff_ffff);
  const keyLength = requireIntegerInRange("Argon2id key length", params.keyLength, 16, 1024, "bytes");
  try {
    return sodium.crypto_pwhash(
      keyLength,
      passwordBytes,
      salt,
      iterations,
      memoryKiB * 1024,
      sodium.crypto_pwhash_ALG_ARGON2ID13,
    );
  } catch (cause) {
    // With the parameters checked above, the one way left to fail is the wasm
    // heap refusing to grow.
    throw new AppError("resource_exhausted", `Argon2id could not allocate ${memoryKiB} KiB`, { cause });
  } finally {
    // Only wipe the UTF-8 copy made here, never the caller's own buffer.
    if (typeof password === "string") sodium.memzero(passwordBytes);
  }
}

/**
 * Checks a password against a PHC string such as
 * `$argon2id$v=19$m=65536,t=2,p=1$<salt>$<hash>` (libsodium
 * `crypto_pwhash_str_verify`; any salt length and lane count). The string's
 * parameters decide the cost, so it must come from a trusted store.
 */
export function verifyArgon2idString(encoded: string, password: Uint8Array | string): boolean {
  const sodium = lib();
  if (typeof encoded !== "string" || !encoded.startsWith("$argon2id$")) {
    throw new AppError("invalid_argument", "not an Argon2id hash string (expected a $argon2id$ prefix)");
  }
  const passwordBytes = toBytes("password", password);
  try {
    return sodium.crypto_pwhash_str_verify(encoded, passwordBytes);
  } catch {
    // libsodium throws on strings it cannot parse; for a verifier that is a "no".
    return false;
  } finally {
    if (typeof password === "string") sodium.memzero(passwordBytes);
  }
}
