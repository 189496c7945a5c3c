import { AppError } from "@mc/shared/errors";
import { concatBytes, requireBytes } from "./check-bytes.js";
import { ed25519KeyPairFromSeed } from "./ed25519.js";
import { blake2b } from "./hash.js";
import { lib } from "./init-crypto.js";
import {
  algLegacy,
  asciiBytes,
  asciiText,
  decodeBase64,
  encodeBase64,
  malformed,
  readText,
  splitLines,
  untrustedPrefix,
} from "./minisign-encoding.js";
import { minisignKeyIdLength, type MinisignSecretKey } from "./minisign-key.js";

// Blob: alg[2] kdf[2] cksum[2] salt[32] opslimit[8] memlimit[8] keynum[104], where
// keynum = key id[8] ‖ secret key[64] ‖ checksum[32], XORed with the KDF output when encrypted.
const blobLength = 158;
const keynumOffset = 54;
export const keynumLength = 104;
export const kdfNone = "\0\0";
export const kdfScrypt = "Sc";

export interface SecretKeyBlob {
  readonly kdf: string;
  readonly salt: Uint8Array;
  readonly opsLimit: bigint;
  readonly memLimit: bigint;
  readonly keynum: Uint8Array;
}

export function readSecretKeyBlob(input: string | Uint8Array): SecretKeyBlob {
  const what = "minisign secret key";
  const lines = splitLines(readText(input, what), what);
  if (lines.length !== 2 || !(lines[0] ?? "").startsWith(untrustedPrefix)) {
    throw malformed(what, "expected a comment line and a key line");
  }
  const blob = decodeBase64(lines[1] ?? "", blobLength, what);
  if (asciiText(blob.subarray(0, 2)) !== algLegacy) throw malformed(what, "unsupported signature algorithm");
  if (asciiText(blob.subarray(4, 6)) !== "B2") throw malformed(what, "unsupported checksum algorithm");
  const view = new DataView(blob.buffer, blob.byteOffset, blob.length);
  const parsed = {
    kdf: asciiText(blob.subarray(2, 4)),
    salt: blob.slice(6, 38),
    opsLimit: view.getBigUint64(38, true),
    memLimit: view.getBigUint64(46, true),
    keynum: blob.slice(keynumOffset),
  };
  // The decoded copy may hold the plain key; keep only the one handed back.
  blob.fill(0);
  return parsed;
}

/**
 * Reads an unencrypted secret key file (KDF bytes zero, as `minisign -G -W`
 * writes). The checksum may be all zeros, as minisign 0.11 leaves it for such
 * keys, or the real BLAKE2b-256 checksum. Encrypted keys need
 * `decryptMinisignSecretKey`.
 */
export function parseMinisignSecretKey(input: string | Uint8Array): MinisignSecretKey {
  lib();
  const blob = readSecretKeyBlob(input);
  if (blob.kdf === kdfScrypt) {
    throw new AppError("failed_precondition", "minisign secret key is encrypted: use decryptMinisignSecretKey");
  }
  if (blob.kdf !== kdfNone) throw malformed("minisign secret key", "unsupported key derivation algorithm");
  return secretKeyFromKeynum(blob.keynum, true);
}

/**
 * Splits a (decrypted) keynum and checks it: the checksum, and that the seed
 * really derives the stored public key, so a corrupt file never signs.
 */
export function secretKeyFromKeynum(keynum: Uint8Array, allowZeroChecksum: boolean): MinisignSecretKey {
  const sodium = lib();
  const what = "minisign secret key";
  const keyId = keynum.slice(0, minisignKeyIdLength);
  const secretKey = keynum.slice(8, 72);
  const checksum = keynum.subarray(72, keynumLength);
  const skipChecksum = allowZeroChecksum && sodium.is_zero(checksum);
  if (!skipChecksum && !sodium.memcmp(checksum, secretKeyChecksum(keyId, secretKey))) {
    throw malformed(what, "checksum mismatch");
  }
  const derived = ed25519KeyPairFromSeed(secretKey.subarray(0, 32));
  if (!sodium.memcmp(derived.publicKey, secretKey.subarray(32))) {
    throw malformed(what, "public key does not match the seed");
  }
  return { keyId, publicKey: derived.publicKey, secretKey };
}

/** BLAKE2b-256(`Ed` ‖ key id ‖ secret key): minisign's secret key checksum. */
function secretKeyChecksum(keyId: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return blake2b(concatBytes(asciiBytes(algLegacy), keyId, secretKey), 32);
}

/**
 * Our signer's secret key format: minisign's own unencrypted secret key file
 * (KDF bytes, salt and limits zero, real checksum), so the real
 * `minisign -S -s <file>` signs with it too. Store it with mode 0600.
 */
export function formatMinisignSecretKey(key: MinisignSecretKey): string {
  lib();
  const noMask = new Uint8Array(keynumLength);
  return secretKeyFile(key, { kdf: kdfNone, salt: new Uint8Array(32), opsLimit: 0n, memLimit: 0n }, noMask);
}

/** Writes the file, XORing keynum with `mask` (zeros when unencrypted). */
export function secretKeyFile(key: MinisignSecretKey, kdf: Omit<SecretKeyBlob, "keynum">, mask: Uint8Array): string {
  requireBytes("minisign key id", key.keyId, minisignKeyIdLength);
  requireBytes("Ed25519 secret key", key.secretKey, 64);
  const blob = new Uint8Array(blobLength);
  blob.set(asciiBytes(algLegacy), 0);
  blob.set(asciiBytes(kdf.kdf), 2);
  blob.set(asciiBytes("B2"), 4);
  blob.set(kdf.salt, 6);
  const view = new DataView(blob.buffer);
  view.setBigUint64(38, kdf.opsLimit, true);
  view.setBigUint64(46, kdf.memLimit, true);
  const keynum = concatBytes(key.keyId, key.secretKey, secretKeyChecksum(key.keyId, key.secretKey));
  for (let i = 0; i < keynumLength; i += 1) blob[keynumOffset + i] = (keynum[i] ?? 0) ^ (mask[i] ?? 0);
  const comment = kdf.kdf === kdfNone ? "minisign unencrypted secret key" : "minisign encrypted secret key";
  const text = `${untrustedPrefix}${comment}\n${encodeBase64(blob)}\n`;
  // The plaintext key material only lived in these two scratch buffers.
  lib().memzero(keynum);
  lib().memzero(blob);
  return text;
}
