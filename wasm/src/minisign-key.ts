import { randomFillSync } from "node:crypto";
import { concatBytes, requireBytes } from "./check-bytes.js";
import { ed25519KeyPairFromSeed } from "./ed25519.js";
import {
  algLegacy,
  asciiBytes,
  asciiText,
  decodeBase64,
  encodeBase64,
  malformed,
  minisignKeyIdHex,
  readText,
  splitLines,
  untrustedPrefix,
} from "./minisign-encoding.js";
import { generateKey } from "./random.js";

export const minisignKeyIdLength = 8;

export interface MinisignPublicKey {
  /** 8 bytes, in file order (display form: `minisignKeyIdHex`). */
  readonly keyId: Uint8Array;
  /** Raw 32-byte Ed25519 public key. */
  readonly publicKey: Uint8Array;
}

export interface MinisignSecretKey extends MinisignPublicKey {
  /** 64 bytes: the Ed25519 seed followed by the public key. */
  readonly secretKey: Uint8Array;
}

/** A new key pair; seed and key id are random unless given (tests pin them). */
export function createMinisignKeyPair(seed?: Uint8Array, keyId?: Uint8Array): MinisignSecretKey {
  const id = keyId ?? randomFillSync(new Uint8Array(minisignKeyIdLength));
  requireBytes("minisign key id", id, minisignKeyIdLength);
  const pair = ed25519KeyPairFromSeed(seed ?? generateKey(32));
  return { keyId: id.slice(), publicKey: pair.publicKey, secretKey: pair.secretKey };
}

/** Only the public half of a key pair (what goes into a `.pub` file). */
export function minisignPublicKeyOf(key: MinisignSecretKey): MinisignPublicKey {
  return { keyId: key.keyId, publicKey: key.publicKey };
}

/**
 * Reads a public key: the two-line `.pub` file, or the bare base64 line (as
 * given to `minisign -P` and in MC_UPDATE_MINISIGN_PUBKEY).
 */
export function parseMinisignPublicKey(input: string | Uint8Array): MinisignPublicKey {
  const what = "minisign public key";
  const text = readText(input, what);
  let line: string;
  if (text.startsWith(untrustedPrefix)) {
    const lines = splitLines(text, what);
    if (lines.length !== 2) throw malformed(what, "expected a comment line and a key line");
    line = lines[1] ?? "";
  } else {
    line = text.trim();
  }
  const blob = decodeBase64(line, 2 + minisignKeyIdLength + 32, what);
  if (asciiText(blob.subarray(0, 2)) !== algLegacy) throw malformed(what, "unsupported signature algorithm");
  return { keyId: blob.slice(2, 10), publicKey: blob.slice(10) };
}

/** The key line alone: base64(`Ed` ‖ key id ‖ public key). */
export function minisignPublicKeyLine(key: MinisignPublicKey): string {
  requireBytes("minisign key id", key.keyId, minisignKeyIdLength);
  requireBytes("Ed25519 public key", key.publicKey, 32);
  return encodeBase64(concatBytes(asciiBytes(algLegacy), key.keyId, key.publicKey));
}

/** The `.pub` file text, as `minisign -G` writes it (key id with all 16 digits). */
export function formatMinisignPublicKey(key: MinisignPublicKey): string {
  return `${untrustedPrefix}minisign public key ${minisignKeyIdHex(key.keyId)}\n${minisignPublicKeyLine(key)}\n`;
}
