import { createCipheriv, createDecipheriv } from "node:crypto";
import { lib } from "./init-crypto.js";

/**
 * XChaCha20-Poly1305 (IETF) for large payloads, on OpenSSL's ChaCha20-Poly1305
 * through node:crypto: XChaCha20 is ChaCha20 under the subkey HChaCha20(key,
 * nonce[0..16)) with the nonce 0x00000000 ‖ nonce[16..24) (draft-irtf-cfrg-
 * xchacha-03 §2.3), so libsodium derives the subkey and OpenSSL does the
 * bulk. The bytes are libsodium's; the vectors and a cross-check with the
 * WebAssembly path prove it (xchacha-native.test.ts). Why: OpenSSL's
 * vectorised code opens 16 KiB 3-4x faster and 64 KiB 5-7x faster than
 * libsodium's WebAssembly build here, and loading a KMS snapshot opens every
 * 16 KiB chunk of it (a million keys is 300 MB). Small payloads stay on
 * libsodium: a cipher object costs more than a few hundred bytes of work.
 */
export const nativeFromBytes = 4096;

function subkeyAndNonce(key: Uint8Array, nonce: Uint8Array): { subkey: Uint8Array; iv: Uint8Array } {
  const subkey = lib().crypto_core_hchacha20(nonce.subarray(0, 16), key, null);
  const iv = new Uint8Array(12);
  iv.set(nonce.subarray(16, 24), 4);
  return { subkey, iv };
}

/** ciphertext ‖ 16-byte tag (arguments already checked by the caller). */
export function nativeXChaChaEncrypt(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array, ad: Uint8Array): Uint8Array {
  const { subkey, iv } = subkeyAndNonce(key, nonce);
  const c = createCipheriv("chacha20-poly1305", subkey, iv, { authTagLength: 16 });
  subkey.fill(0);
  c.setAAD(ad, { plaintextLength: plaintext.length });
  const out = new Uint8Array(plaintext.length + 16);
  // update() may return less than it took (none here: a stream cipher), so the pieces are placed by length.
  const body = c.update(plaintext);
  out.set(body, 0);
  const rest = c.final();
  out.set(rest, body.length);
  out.set(c.getAuthTag(), body.length + rest.length);
  return out;
}

/** The plaintext, or undefined when the tag does not verify (the caller throws its one error). */
export function nativeXChaChaDecrypt(key: Uint8Array, nonce: Uint8Array, sealed: Uint8Array, ad: Uint8Array): Uint8Array | undefined {
  const { subkey, iv } = subkeyAndNonce(key, nonce);
  const d = createDecipheriv("chacha20-poly1305", subkey, iv, { authTagLength: 16 });
  subkey.fill(0);
  const length = sealed.length - 16;
  d.setAAD(ad, { plaintextLength: length });
  d.setAuthTag(sealed.subarray(length));
  const body = d.update(sealed.subarray(0, length));
  try {
    d.final();
  } catch {
    // OpenSSL has decrypted into `body` before the tag check: nothing of it leaves.
    body.fill(0);
    return undefined;
  }
  return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
}
