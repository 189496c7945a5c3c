import { createHash } from "node:crypto";
import { requireBytesInRange, requireIntegerInRange, requireUint8Array } from "./check-bytes.js";
import { lib } from "./init-crypto.js";

/** libsodium crypto_generichash bounds (BLAKE2b): output and key 16..64 bytes. */
export const blake2bMinLength = 16;
export const blake2bMaxLength = 64;

// Inputs larger than this are fed to libsodium in slices: copying a whole
// release binary into the wasm heap would grow it for good (wasm memory never
// shrinks).
const chunkSize = 64 * 1024;

/**
 * BLAKE2b with an output of `outputLength` bytes (16..64), keyed when `key`
 * (16..64 bytes) is given. Unkeyed BLAKE2b-512 is `blake2b(message, 64)`.
 */
export function blake2b(message: Uint8Array, outputLength: number, key?: Uint8Array): Uint8Array {
  const sodium = lib();
  requireUint8Array("message", message);
  requireIntegerInRange("BLAKE2b output length", outputLength, blake2bMinLength, blake2bMaxLength, "bytes");
  if (key !== undefined) requireBytesInRange("BLAKE2b key", key, blake2bMinLength, blake2bMaxLength);
  const sodiumKey = key ?? null;
  if (message.length <= chunkSize) return sodium.crypto_generichash(outputLength, message, sodiumKey);
  const state = sodium.crypto_generichash_init(sodiumKey, outputLength);
  for (let offset = 0; offset < message.length; offset += chunkSize) {
    sodium.crypto_generichash_update(state, message.subarray(offset, offset + chunkSize));
  }
  return sodium.crypto_generichash_final(state, outputLength);
}

/**
 * SHA-256 and SHA-512 come from node:crypto (OpenSSL, native, no copy into
 * the wasm heap), so they also work before `initCrypto()`.
 */
export function sha256(message: Uint8Array): Uint8Array {
  return digest("sha256", message);
}

export function sha512(message: Uint8Array): Uint8Array {
  return digest("sha512", message);
}

function digest(algorithm: "sha256" | "sha512", message: Uint8Array): Uint8Array {
  requireUint8Array("message", message);
  const buffer = createHash(algorithm).update(message).digest();
  // A plain Uint8Array, like every other function here returns.
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
}
