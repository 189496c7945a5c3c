import { AppError } from "@mc/shared/errors";
import { requireBytes, requireUint8Array } from "./check-bytes.js";
import { lib } from "./init-crypto.js";

export const ed25519SeedLength = 32;
export const ed25519PublicKeyLength = 32;
/** libsodium's secret key layout: seed ‖ public key. */
export const ed25519SecretKeyLength = 64;
export const ed25519SignatureLength = 64;

export interface Ed25519KeyPair {
  /** 32-byte public key. */
  readonly publicKey: Uint8Array;
  /** 64 bytes: the 32-byte seed followed by the public key (libsodium's form). */
  readonly secretKey: Uint8Array;
}

/** Deterministic key pair from a 32-byte seed (RFC 8032 "secret key"). */
export function ed25519KeyPairFromSeed(seed: Uint8Array): Ed25519KeyPair {
  const sodium = lib();
  requireBytes("Ed25519 seed", seed, ed25519SeedLength);
  const { publicKey, privateKey } = sodium.crypto_sign_seed_keypair(seed);
  return { publicKey, secretKey: privateKey };
}

/** Detached pure Ed25519 signature (64 bytes) with a 64-byte secret key. */
export function ed25519Sign(secretKey: Uint8Array, message: Uint8Array): Uint8Array {
  const sodium = lib();
  requireBytes("Ed25519 secret key", secretKey, ed25519SecretKeyLength);
  requireUint8Array("message", message);
  return sodium.crypto_sign_detached(message, secretKey);
}

/**
 * Verifies a detached Ed25519 signature. A public key of the wrong length is
 * a caller bug and throws `invalid_argument`; a signature of the wrong length
 * is untrusted input and simply does not verify (false), like a bad one.
 */
export function ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const sodium = lib();
  requireBytes("Ed25519 public key", publicKey, ed25519PublicKeyLength);
  requireUint8Array("message", message);
  requireUint8Array("signature", signature);
  if (signature.length !== ed25519SignatureLength) return false;
  try {
    return sodium.crypto_sign_verify_detached(signature, message, publicKey);
  } catch (cause) {
    // Lengths are checked above, so libsodium has no reason left to throw.
    throw new AppError("internal", "internal error", { cause });
  }
}
