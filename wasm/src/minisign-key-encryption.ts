import { AppError } from "@mc/shared/errors";
import { randomFillSync, scrypt, type ScryptOptions } from "node:crypto";
import { requireIntegerInRange, toBytes } from "./check-bytes.js";
import { lib } from "./init-crypto.js";
import { malformed, minisignError } from "./minisign-encoding.js";
import type { MinisignSecretKey } from "./minisign-key.js";
import {
  kdfNone,
  kdfScrypt,
  keynumLength,
  readSecretKeyBlob,
  secretKeyFile,
  secretKeyFromKeynum,
} from "./minisign-secret-key.js";

/**
 * minisign's password-protected secret keys: keynum XOR scrypt(password,
 * salt), with libsodium's scryptsalsa208sha256 (opslimit, memlimit) turned
 * into (N, r, p). scrypt itself runs in node:crypto: native, off the main
 * thread, and its gigabyte is freed afterwards, where the wasm heap would keep it.
 */
export interface MinisignKdfLimits {
  readonly opsLimit: number;
  readonly memLimit: number;
}

/** minisign's defaults (libsodium *_SENSITIVE): scrypt N = 2^20, r = 8, p = 1, 1 GiB. */
export const minisignSensitiveLimits: MinisignKdfLimits = { opsLimit: 33_554_432, memLimit: 1_073_741_824 };

/** Reads a secret key file; encrypted ones (`Sc`) are decrypted with `password`. */
export async function decryptMinisignSecretKey(
  input: string | Uint8Array,
  password: string | Uint8Array,
): Promise<MinisignSecretKey> {
  lib();
  const blob = readSecretKeyBlob(input);
  if (blob.kdf === kdfNone) return secretKeyFromKeynum(blob.keynum, true);
  if (blob.kdf !== kdfScrypt) throw malformed("minisign secret key", "unsupported key derivation algorithm");
  const limits = { opsLimit: toSafeNumber(blob.opsLimit), memLimit: toSafeNumber(blob.memLimit) };
  const mask = await scryptMask(password, blob.salt, limits);
  for (let i = 0; i < keynumLength; i += 1) blob.keynum[i] = (blob.keynum[i] ?? 0) ^ (mask[i] ?? 0);
  lib().memzero(mask);
  try {
    return secretKeyFromKeynum(blob.keynum, false);
  } catch {
    // With a good file, a checksum mismatch after decryption means the password.
    throw minisignError("wrong_password", "wrong password for that minisign secret key");
  } finally {
    lib().memzero(blob.keynum);
  }
}

/** Writes a password-protected secret key file that `minisign -S` can use. */
export async function encryptMinisignSecretKey(
  key: MinisignSecretKey,
  password: string | Uint8Array,
  limits: MinisignKdfLimits = minisignSensitiveLimits,
): Promise<string> {
  lib();
  requireIntegerInRange("scrypt opslimit", limits.opsLimit, 1, Number.MAX_SAFE_INTEGER);
  requireIntegerInRange("scrypt memlimit", limits.memLimit, 1, Number.MAX_SAFE_INTEGER, "bytes");
  const salt = randomFillSync(new Uint8Array(32));
  const mask = await scryptMask(password, salt, limits);
  try {
    const kdf = { kdf: kdfScrypt, salt, opsLimit: BigInt(limits.opsLimit), memLimit: BigInt(limits.memLimit) };
    return secretKeyFile(key, kdf, mask);
  } finally {
    lib().memzero(mask);
  }
}

/** libsodium's `pickparams` for scryptsalsa208sha256, line for line. */
export function scryptParams(limits: MinisignKdfLimits): { N: number; r: number; p: number } {
  const ops = Math.max(limits.opsLimit, 32768);
  const r = 8;
  let logN = 1;
  let p = 1;
  const maxN = ops < Math.floor(limits.memLimit / 32) ? Math.floor(ops / (r * 4)) : Math.floor(limits.memLimit / (r * 128));
  while (logN < 63 && 2 ** logN <= Math.floor(maxN / 2)) logN += 1;
  if (ops >= Math.floor(limits.memLimit / 32)) {
    const maxrp = Math.min(Math.floor(Math.floor(ops / 4) / 2 ** logN), 0x3fffffff);
    p = Math.floor(maxrp / r);
  }
  return { N: 2 ** logN, r, p };
}

async function scryptMask(password: string | Uint8Array, salt: Uint8Array, limits: MinisignKdfLimits): Promise<Uint8Array> {
  const { N, r, p } = scryptParams(limits);
  // A file asking for more than minisign's own 1 GiB default is not one of ours.
  if (128 * N * r > 2 ** 30 || p < 1 || p > 64) {
    throw malformed("minisign secret key", "scrypt parameters out of range");
  }
  const options: ScryptOptions = { N, r, p, maxmem: 128 * r * (N + p + 2) + 1024 * 1024 };
  const passwordBytes = toBytes("password", password);
  try {
    return await new Promise<Uint8Array>((resolve, reject) => {
      scrypt(passwordBytes, salt, keynumLength, options, (error, derived) => {
        if (error === null) resolve(new Uint8Array(derived.buffer, derived.byteOffset, derived.length));
        else reject(new AppError("resource_exhausted", "scrypt could not derive the minisign key mask", { cause: error }));
      });
    });
  } finally {
    if (typeof password === "string") lib().memzero(passwordBytes);
  }
}

function toSafeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw malformed("minisign secret key", "scrypt parameters out of range");
  return Number(value);
}
