import { createHmac } from "node:crypto";
import { open, seal, secretRandom, xchacha20poly1305Decrypt, xchacha20poly1305Encrypt } from "@mc/wasm";
import { notAuthentic } from "../domain/ciphertext.js";
import type { KmsCrypto } from "../domain/ports.js";

const materialAd = new TextEncoder().encode("kms:key-material:v1");

/**
 * KmsCrypto on the crypto core (XChaCha20-Poly1305 from libsodium; random
 * bytes from node:crypto). HMAC-SHA256 is node:crypto's, because the crypto
 * core exposes no HMAC. `rootKey` is the HSM-unsealed root encryption key.
 */
export function createSodiumCrypto(rootKey: Uint8Array): KmsCrypto {
  return {
    // Pooled (one randomFillSync per 4 KiB): a data key on every generate and a nonce on every encrypt.
    random: (n) => secretRandom(n),
    aeadEncrypt: (key, nonce, plaintext, ad) => xchacha20poly1305Encrypt(key, nonce, plaintext, ad),
    aeadDecrypt(key, nonce, ciphertext, ad) {
      try {
        return xchacha20poly1305Decrypt(key, nonce, ciphertext, ad);
      } catch {
        throw notAuthentic();
      }
    },
    hmacSha256: (key, message) => new Uint8Array(createHmac("sha256", key).update(message).digest()),
    seal: (plaintext) => seal(rootKey, plaintext, materialAd),
    unseal: (sealed) => open(rootKey, sealed, materialAd),
  };
}
