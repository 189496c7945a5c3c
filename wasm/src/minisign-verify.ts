import { concatBytes, requireBytes, requireUint8Array } from "./check-bytes.js";
import { ed25519Verify } from "./ed25519.js";
import { blake2b } from "./hash.js";
import { lib } from "./init-crypto.js";
import {
  algLegacy,
  algPrehashed,
  asciiText,
  decodeBase64,
  malformed,
  minisignError,
  minisignKeyIdHex,
  readText,
  splitLines,
  trustedPrefix,
  untrustedPrefix,
} from "./minisign-encoding.js";
import type { MinisignPublicKey } from "./minisign-key.js";

export interface MinisignVerifyOptions {
  /** Reject legacy `Ed` signatures, like `minisign -V -H`. */
  readonly requirePrehashed?: boolean;
}

export interface MinisignVerified {
  /** The trusted comment text, authenticated by the global signature. */
  readonly trustedComment: string;
  /** The untrusted comment text: not authenticated, for display only. */
  readonly untrustedComment: string;
  /** True for `ED` (BLAKE2b-512 prehashed), false for legacy `Ed`. */
  readonly prehashed: boolean;
}

const what = "minisign signature";

/**
 * Verifies a `.minisig` file against `message` the way `minisign -V` does:
 * key id, then the signature over the file (or its BLAKE2b-512 for `ED`),
 * then the global signature over signature ‖ trusted comment. Returns the
 * comments only when all pass; otherwise throws `invalid_argument` with
 * `details.minisign` naming the failed check.
 */
export function verifyMinisign(
  key: MinisignPublicKey,
  message: Uint8Array,
  signatureFile: string | Uint8Array,
  options: MinisignVerifyOptions = {},
): MinisignVerified {
  lib();
  requireBytes("minisign key id", key.keyId, 8);
  requireUint8Array("message", message);
  const lines = splitLines(readText(signatureFile, what), what);
  const [untrustedLine = "", signatureLine = "", trustedLine = "", globalLine = "", ...rest] = lines;
  if (lines.length < 4 || rest.some((line) => line !== "")) throw malformed(what, "expected four lines");
  if (!untrustedLine.startsWith(untrustedPrefix)) throw malformed(what, `first line must start with "${untrustedPrefix}"`);
  if (!trustedLine.startsWith(trustedPrefix)) throw malformed(what, `third line must start with "${trustedPrefix}"`);
  const blob = decodeBase64(signatureLine, 74, what);
  const globalSignature = decodeBase64(globalLine, 64, what);
  const algorithm = asciiText(blob.subarray(0, 2));
  if (algorithm !== algLegacy && algorithm !== algPrehashed) throw malformed(what, "unsupported signature algorithm");
  const keyId = blob.subarray(2, 10);
  const signature = blob.subarray(10);

  if (!lib().memcmp(keyId, key.keyId)) {
    throw minisignError(
      "key_id_mismatch",
      `signature key id ${minisignKeyIdHex(keyId)} does not match public key ${minisignKeyIdHex(key.keyId)}`,
    );
  }
  const prehashed = algorithm === algPrehashed;
  if (!prehashed && options.requirePrehashed === true) {
    throw minisignError("legacy_rejected", "legacy (non-prehashed) minisign signatures are not accepted");
  }
  if (!ed25519Verify(key.publicKey, prehashed ? blake2b(message, 64) : message, signature)) {
    throw minisignError("bad_signature", "minisign signature verification failed");
  }
  const trustedComment = trustedLine.slice(trustedPrefix.length);
  const trustedBytes = new TextEncoder().encode(trustedComment);
  if (!ed25519Verify(key.publicKey, concatBytes(signature, trustedBytes), globalSignature)) {
    throw minisignError("bad_trusted_comment", "minisign trusted comment signature verification failed");
  }
  return { trustedComment, untrustedComment: untrustedLine.slice(untrustedPrefix.length), prehashed };
}
