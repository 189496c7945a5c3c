import { createCipheriv, createDecipheriv, pbkdf2Sync } from "node:crypto";
import { decryptionFailed, tagLength } from "./aead.js";
import { requireBytes, requireIntegerInRange, requireUint8Array, toBytes } from "./check-bytes.js";

/**
 * AES-256-GCM (12-byte nonce, 16-byte tag) and PBKDF2-HMAC-SHA256 from
 * node:crypto. libsodium's WebAssembly build has no AES-GCM (its
 * implementation needs the CPU's AES instructions, which WebAssembly cannot
 * reach), but formats written by others use it: MinIO's admin payloads are
 * AES-256-GCM whenever the sender's CPU has AES-NI (and PBKDF2 in FIPS mode).
 * OpenSSL's AES-GCM is constant-time on such CPUs. These work before `initCrypto()`.
 */
export const gcmNonceLength = 12;

const empty = new Uint8Array(0);
const plain = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.length);

/** Returns ciphertext ‖ 16-byte tag. */
export function aes256gcmEncrypt(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array, associatedData: Uint8Array = empty): Uint8Array {
  requireBytes("key", key, 32);
  requireBytes("nonce", nonce, gcmNonceLength);
  requireUint8Array("plaintext", plaintext);
  requireUint8Array("associated data", associatedData);
  const cipher = createCipheriv("aes-256-gcm", key, nonce, { authTagLength: tagLength });
  cipher.setAAD(associatedData);
  return plain(Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]));
}

/** Decrypts ciphertext ‖ tag; fails like the other AEADs ("decryption failed: …"). */
export function aes256gcmDecrypt(key: Uint8Array, nonce: Uint8Array, ciphertext: Uint8Array, associatedData: Uint8Array = empty): Uint8Array {
  requireBytes("key", key, 32);
  requireBytes("nonce", nonce, gcmNonceLength);
  requireUint8Array("ciphertext", ciphertext);
  requireUint8Array("associated data", associatedData);
  if (ciphertext.length < tagLength) throw decryptionFailed();
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, nonce, { authTagLength: tagLength });
    decipher.setAAD(associatedData);
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - tagLength));
    return plain(Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - tagLength)), decipher.final()]));
  } catch {
    throw decryptionFailed();
  }
}

/** PBKDF2 with HMAC-SHA256. */
export function pbkdf2Sha256(password: Uint8Array | string, salt: Uint8Array, iterations: number, keyLength: number): Uint8Array {
  requireUint8Array("salt", salt);
  requireIntegerInRange("PBKDF2 iterations", iterations, 1, 0xffff_ffff);
  requireIntegerInRange("PBKDF2 key length", keyLength, 1, 1024, "bytes");
  return plain(pbkdf2Sync(toBytes("password", password), salt, iterations, keyLength, "sha256"));
}
