import { AppError } from "@mc/shared/errors";
import { requireBytes, requireUint8Array } from "./check-bytes.js";
import { lib } from "./init-crypto.js";
import { nativeFromBytes, nativeXChaChaDecrypt, nativeXChaChaEncrypt } from "./xchacha-native.js";

/** Poly1305 tag length, appended to every ciphertext. */
export const tagLength = 16;
/** IETF ChaCha20-Poly1305 (RFC 8439) nonce length. */
export const chachaNonceLength = 12;

const aeadKeyLength = 32;
const xchachaNonceLength = 24;

/**
 * The one error for every failed open, whatever the cause (wrong key, nonce,
 * associated data, tampered or truncated input): distinguishing them would
 * only help an attacker. Same message as the KMS contract's decrypt failure.
 */
export function decryptionFailed(): AppError {
  return new AppError("invalid_argument", "decryption failed: ciphertext is not authentic");
}

const empty = new Uint8Array(0);

type EncryptPrimitive = (plaintext: Uint8Array, ad: Uint8Array, secretNonce: null, nonce: Uint8Array, key: Uint8Array) => Uint8Array;
type DecryptPrimitive = (secretNonce: null, ciphertext: Uint8Array, ad: Uint8Array, nonce: Uint8Array, key: Uint8Array) => Uint8Array;

function encryptWith(primitive: EncryptPrimitive, nonceLength: number, key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array, associatedData: Uint8Array): Uint8Array {
  checkArgs(key, nonce, nonceLength, associatedData);
  requireUint8Array("plaintext", plaintext);
  return primitive(plaintext, associatedData, null, nonce, key);
}

function decryptWith(primitive: DecryptPrimitive, nonceLength: number, key: Uint8Array, nonce: Uint8Array, ciphertext: Uint8Array, associatedData: Uint8Array): Uint8Array {
  checkArgs(key, nonce, nonceLength, associatedData);
  requireUint8Array("ciphertext", ciphertext);
  if (ciphertext.length < tagLength) throw decryptionFailed();
  try {
    return primitive(null, ciphertext, associatedData, nonce, key);
  } catch {
    // libsodium's only failure here is a bad tag; its text adds nothing.
    throw decryptionFailed();
  }
}

/** XChaCha20-Poly1305 (IETF) encrypt with an explicit 24-byte nonce. Returns ciphertext ‖ 16-byte tag. */
export function xchacha20poly1305Encrypt(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array, associatedData: Uint8Array = empty): Uint8Array {
  if (plaintext instanceof Uint8Array && plaintext.length >= nativeFromBytes) {
    checkArgs(key, nonce, xchachaNonceLength, associatedData);
    return nativeXChaChaEncrypt(key, nonce, plaintext, associatedData);
  }
  return encryptWith(lib().crypto_aead_xchacha20poly1305_ietf_encrypt, xchachaNonceLength, key, nonce, plaintext, associatedData);
}

/**
 * XChaCha20-Poly1305 (IETF) decrypt of ciphertext ‖ tag. Throws
 * `invalid_argument` "decryption failed: …" on any authentication failure and
 * returns no plaintext then.
 */
export function xchacha20poly1305Decrypt(key: Uint8Array, nonce: Uint8Array, ciphertext: Uint8Array, associatedData: Uint8Array = empty): Uint8Array {
  if (ciphertext instanceof Uint8Array && ciphertext.length >= nativeFromBytes + tagLength) {
    checkArgs(key, nonce, xchachaNonceLength, associatedData);
    const plain = nativeXChaChaDecrypt(key, nonce, ciphertext, associatedData);
    if (!plain) throw decryptionFailed();
    return plain;
  }
  return decryptWith(lib().crypto_aead_xchacha20poly1305_ietf_decrypt, xchachaNonceLength, key, nonce, ciphertext, associatedData);
}

/** ChaCha20-Poly1305 (IETF, RFC 8439) encrypt with a 12-byte nonce. Returns ciphertext ‖ tag. */
export function chacha20poly1305Encrypt(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array, associatedData: Uint8Array = empty): Uint8Array {
  return encryptWith(lib().crypto_aead_chacha20poly1305_ietf_encrypt, chachaNonceLength, key, nonce, plaintext, associatedData);
}

/** ChaCha20-Poly1305 (IETF, RFC 8439) decrypt; fails like `xchacha20poly1305Decrypt`. */
export function chacha20poly1305Decrypt(key: Uint8Array, nonce: Uint8Array, ciphertext: Uint8Array, associatedData: Uint8Array = empty): Uint8Array {
  return decryptWith(lib().crypto_aead_chacha20poly1305_ietf_decrypt, chachaNonceLength, key, nonce, ciphertext, associatedData);
}

function checkArgs(key: Uint8Array, nonce: Uint8Array, nonceLength: number, associatedData: Uint8Array): void {
  requireBytes("key", key, aeadKeyLength);
  requireBytes("nonce", nonce, nonceLength);
  requireUint8Array("associated data", associatedData);
}
