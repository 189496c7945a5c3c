import { randomFillSync } from "node:crypto";
import { requireIntegerInRange } from "./check-bytes.js";

/** XChaCha20-Poly1305 nonce length. */
export const nonceLength = 24;
/** Length of every symmetric key this package uses (XChaCha20, ChaCha20, Ed25519 seeds). */
export const keyLength = 32;

// libsodium's randombytes_buf falls back to one JS call per 4 bytes under Node
// (~9k nonces/s); node:crypto gives ~300k/s. A pool refilled in 4 KiB blocks
// amortises even that. Only nonces come from the pool: they are public, so
// keeping unused ones in memory costs nothing. Keys never touch it.
const poolSize = 4096;
const pool = new Uint8Array(poolSize);
let poolOffset = poolSize;

/** Writes a fresh random nonce into `target` (public randomness, pooled). */
export function fillNonce(target: Uint8Array): void {
  if (poolOffset + target.length > poolSize) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  target.set(pool.subarray(poolOffset, poolOffset + target.length));
  poolOffset += target.length;
}

/** A fresh random 24-byte XChaCha20-Poly1305 nonce. Works without `initCrypto()`. */
export function generateNonce(): Uint8Array {
  const nonce = new Uint8Array(nonceLength);
  fillNonce(nonce);
  return nonce;
}

/**
 * Fresh secret random bytes from node:crypto (32 by default: an AEAD key or an
 * Ed25519 seed). Works without `initCrypto()`.
 */
export function generateKey(length: number = keyLength): Uint8Array {
  requireIntegerInRange("key length", length, 16, 64, "bytes");
  // Filled in place: a Buffer from randomBytes() would need a copy, leaving a
  // second copy of the secret behind for the GC.
  const key = new Uint8Array(length);
  randomFillSync(key);
  return key;
}
