import { randomFillSync } from "node:crypto";
import { requireIntegerInRange } from "./check-bytes.js";

/** XChaCha20-Poly1305 nonce length. */
export const nonceLength = 24;
/** Length of every symmetric key this package uses (XChaCha20, ChaCha20, Ed25519 seeds). */
export const keyLength = 32;

// libsodium's randombytes_buf falls back to one JS call per 4 bytes under Node
// (~9k nonces/s); node:crypto gives ~300k/s. A pool refilled in 4 KiB blocks
// amortises even that. Nonces come from this pool: they are public, so
// keeping unused ones in memory costs nothing. Secret bytes have their own
// pool (below), whose bytes are wiped as they are handed out.
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

// Secret random bytes, pooled as well: each randomFillSync costs about the
// same (~5-8 µs here) for 32 bytes as for 4 KiB, and a KMS asks for a data
// key on every generate. The bytes not yet handed out wait in memory as a
// DRBG's state does (a process that can read them can read every key the
// KMS holds); those handed out are wiped from the pool at once, so a later
// look at memory finds no key that was given away.
const secretPool = new Uint8Array(poolSize);
let secretOffset = poolSize;
/** Requests above this length bypass the pool (they would drain it for one caller). */
const secretPooledMax = 256;

/** `length` fresh secret random bytes (a data key, key material). Works without `initCrypto()`. */
export function secretRandom(length: number): Uint8Array {
  requireIntegerInRange("random length", length, 0, 1 << 20, "bytes");
  const out = new Uint8Array(length);
  if (length > secretPooledMax) {
    randomFillSync(out);
    return out;
  }
  if (secretOffset + length > poolSize) {
    randomFillSync(secretPool);
    secretOffset = 0;
  }
  const taken = secretPool.subarray(secretOffset, secretOffset + length);
  out.set(taken);
  taken.fill(0);
  secretOffset += length;
  return out;
}
