import { requireUint8Array } from "./check-bytes.js";
import { lib } from "./init-crypto.js";

/**
 * Compares two byte arrays in time that depends only on their length
 * (libsodium `memcmp`), for MACs, tags and tokens. Arrays of different
 * lengths are unequal; lengths are not treated as secret.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  const sodium = lib();
  requireUint8Array("first operand", a);
  requireUint8Array("second operand", b);
  if (a.length !== b.length) return false;
  return sodium.memcmp(a, b);
}

/** Overwrites a secret buffer with zeros in place (libsodium `memzero`). */
export function zeroize(secret: Uint8Array): void {
  const sodium = lib();
  requireUint8Array("secret", secret);
  sodium.memzero(secret);
}
