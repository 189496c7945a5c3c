import { decryptionFailed, tagLength, xchacha20poly1305Decrypt, xchacha20poly1305Encrypt } from "./aead.js";
import { requireBytes, requireUint8Array } from "./check-bytes.js";
import { lib } from "./init-crypto.js";
import { fillNonce, keyLength, nonceLength } from "./random.js";

/**
 * Sealed envelope, version 1 (layout documented in wasm/README.md):
 *   [0]      format byte 0x01 = XChaCha20-Poly1305 (IETF), 32-byte key
 *   [1..25)  24-byte random nonce
 *   [25..)   ciphertext ‖ 16-byte Poly1305 tag
 */
export const envelopeFormatV1 = 0x01;
/** Bytes an envelope adds to its plaintext: format byte, nonce, tag. */
export const envelopeOverhead = 1 + nonceLength + tagLength;

const headerLength = 1 + nonceLength;
const empty = new Uint8Array(0);

/**
 * Encrypts `plaintext` under a 32-byte key with a fresh random nonce and
 * returns a version-1 envelope. `associatedData` is authenticated but not
 * stored: the same bytes must be passed to `open`.
 */
export function seal(key: Uint8Array, plaintext: Uint8Array, associatedData: Uint8Array = empty): Uint8Array {
  lib();
  requireBytes("key", key, keyLength);
  requireUint8Array("plaintext", plaintext);
  const envelope = new Uint8Array(headerLength + plaintext.length + tagLength);
  envelope[0] = envelopeFormatV1;
  const nonce = envelope.subarray(1, headerLength);
  // The nonce goes straight into the output: no separate buffer per call.
  fillNonce(nonce);
  envelope.set(xchacha20poly1305Encrypt(key, nonce, plaintext, associatedData), headerLength);
  return envelope;
}

/**
 * Opens a version-1 envelope. Any problem with the envelope bytes (too short,
 * unknown format byte, wrong key, nonce, tag, ciphertext or associated data)
 * throws the same `invalid_argument` "decryption failed: ciphertext is not
 * authentic" and yields no plaintext; a key of the wrong length is a caller
 * bug and says so.
 */
export function open(key: Uint8Array, envelope: Uint8Array, associatedData: Uint8Array = empty): Uint8Array {
  lib();
  requireBytes("key", key, keyLength);
  requireUint8Array("envelope", envelope);
  requireUint8Array("associated data", associatedData);
  if (envelope.length < envelopeOverhead || envelope[0] !== envelopeFormatV1) throw decryptionFailed();
  return xchacha20poly1305Decrypt(
    key,
    envelope.subarray(1, headerLength),
    envelope.subarray(headerLength),
    associatedData,
  );
}
