import { randomBytes } from "node:crypto";
import { AppError } from "@mc/shared/errors";
import {
  aes256gcmDecrypt,
  aes256gcmEncrypt,
  argon2idLanes,
  chacha20poly1305Decrypt,
  chacha20poly1305Encrypt,
  decryptionFailed,
  pbkdf2Sha256,
} from "@mc/wasm/admin-payload";

/**
 * MinIO's admin payload encryption (madmin `EncryptData`/`DecryptData`):
 *
 *   salt (32) | AEAD id (1) | nonce (8) | sio stream
 *
 * The key is Argon2id(secret key, salt; t=1, m=64 MiB, p=4, 32 bytes) for ids
 * 0 (AES-256-GCM) and 1 (ChaCha20-Poly1305), PBKDF2-SHA256 (8192 rounds) for
 * id 2 (AES-256-GCM, FIPS builds). The sio stream (secure-io/sio-go, the DARE
 * v2 layout) cuts the plaintext into 16 KiB fragments, each sealed with nonce
 * = nonce ‖ LE32(sequence number, from 1) and associated data = flag ‖ T,
 * where flag is 0x80 on the last fragment and 0 before, and T is the tag of
 * sealing nothing under sequence number 0. Dropping, reordering or
 * truncating fragments therefore fails authentication like a flipped bit.
 *
 * We encrypt with ChaCha20-Poly1305 (id 1, libsodium): constant-time on every
 * CPU, and what madmin itself picks without AES hardware. AES-GCM (ids 0
 * and 2) is decrypted with node:crypto, since libsodium's WebAssembly has none.
 */
const saltLength = 32;
const nonceLength = 8;
const headerLength = saltLength + 1 + nonceLength;
const fragment = 16 * 1024;
const tag = 16;
const argon2id = { iterations: 1, memoryKiB: 64 * 1024, parallelism: 4, keyLength: 32 } as const;
const pbkdf2Rounds = 8192;

export const aeadIds = { argon2idAesGcm: 0, argon2idChaCha20Poly1305: 1, pbkdf2AesGcm: 2 } as const;

type Seal = (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, ad: Uint8Array) => Uint8Array;

interface Aead {
  readonly seal: Seal;
  readonly open: Seal;
}

const chacha: Aead = { seal: chacha20poly1305Encrypt, open: chacha20poly1305Decrypt };
const gcm: Aead = { seal: aes256gcmEncrypt, open: aes256gcmDecrypt };

function streamNonce(nonce: Uint8Array, seq: number): Uint8Array {
  const out = new Uint8Array(12);
  out.set(nonce);
  new DataView(out.buffer).setUint32(8, seq, true);
  return out;
}

function headerAd(aead: Aead, key: Uint8Array, nonce: Uint8Array): Uint8Array {
  const ad = new Uint8Array(1 + tag);
  ad.set(aead.seal(key, streamNonce(nonce, 0), new Uint8Array(0), new Uint8Array(0)), 1);
  return ad;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** `EncryptData(secretKey, data)`: what the server's DecryptData reads. Needs `initCrypto()`. */
export function encryptData(password: string, data: Uint8Array, random: (n: number) => Uint8Array = (n) => new Uint8Array(randomBytes(n))): Uint8Array {
  const salt = random(saltLength);
  const nonce = random(nonceLength);
  const key = argon2idLanes(password, salt, argon2id);
  const ad = headerAd(chacha, key, nonce);
  const parts: Uint8Array[] = [salt, Uint8Array.of(aeadIds.argon2idChaCha20Poly1305), nonce];
  let seq = 1;
  let offset = 0;
  // Full fragments while more than one fragment's worth is left; the last (1..16 KiB, or empty for empty data) is final.
  for (; data.length - offset > fragment; offset += fragment) parts.push(chacha.seal(key, streamNonce(nonce, seq++), data.subarray(offset, offset + fragment), ad));
  ad[0] = 0x80;
  parts.push(chacha.seal(key, streamNonce(nonce, seq), data.subarray(offset), ad));
  key.fill(0);
  return concat(parts);
}

/** The one error for any payload that is not what EncryptData made with this secret key. */
export function notAuthentic(): AppError {
  return new AppError("invalid_argument", "the encrypted payload is not authentic (damaged, or sealed with another secret key)");
}

/** `DecryptData(secretKey, data)`. Throws `notAuthentic()` for any damage, truncation or wrong key. Needs `initCrypto()`. */
export function decryptData(password: string, data: Uint8Array): Uint8Array {
  if (data.length < headerLength + tag) throw notAuthentic();
  const salt = data.subarray(0, saltLength);
  const id = data[saltLength];
  const nonce = data.subarray(saltLength + 1, headerLength);
  let key: Uint8Array;
  let aead: Aead;
  if (id === aeadIds.argon2idAesGcm || id === aeadIds.argon2idChaCha20Poly1305) {
    key = argon2idLanes(password, salt, argon2id);
    aead = id === aeadIds.argon2idAesGcm ? gcm : chacha;
  } else if (id === aeadIds.pbkdf2AesGcm) {
    key = pbkdf2Sha256(password, salt, pbkdf2Rounds, 32);
    aead = gcm;
  } else {
    throw new AppError("invalid_argument", `the encrypted payload names an unknown algorithm (${String(id)})`);
  }
  try {
    const ad = headerAd(aead, key, nonce);
    const body = data.subarray(headerLength);
    const parts: Uint8Array[] = [];
    let seq = 1;
    let offset = 0;
    for (; body.length - offset > fragment + tag; offset += fragment + tag) parts.push(aead.open(key, streamNonce(nonce, seq++), body.subarray(offset, offset + fragment + tag), ad));
    ad[0] = 0x80;
    parts.push(aead.open(key, streamNonce(nonce, seq), body.subarray(offset), ad));
    return concat(parts);
  } catch (err) {
    if (err instanceof AppError && err.message === decryptionFailed().message) throw notAuthentic();
    throw err;
  } finally {
    key.fill(0);
  }
}
