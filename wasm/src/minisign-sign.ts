import { concatBytes, requireBytes, requireUint8Array } from "./check-bytes.js";
import { ed25519Sign } from "./ed25519.js";
import { blake2b } from "./hash.js";
import { lib } from "./init-crypto.js";
import {
  algLegacy,
  algPrehashed,
  asciiBytes,
  encodeBase64,
  requireCommentText,
  trustedPrefix,
  untrustedPrefix,
} from "./minisign-encoding.js";
import type { MinisignSecretKey } from "./minisign-key.js";

// The reference reader takes each comment line with fgets() into a fixed
// buffer (8192 bytes trusted, 1024 untrusted) that also holds the prefix,
// the newline and the terminating NUL; longer lines would not verify there.
export const maxTrustedCommentBytes = 8192 - trustedPrefix.length - 2;
export const maxUntrustedCommentBytes = 1024 - untrustedPrefix.length - 2;

export interface MinisignSignOptions {
  /** Signed comment text; default `timestamp:<unix seconds>[\tfile:<fileName>]` plus `\thashed` when prehashed. */
  readonly trustedComment?: string;
  /** Unsigned first line's text; default "signature from minisign secret key". */
  readonly untrustedComment?: string;
  /** File name for the default trusted comment (a base name, like minisign's). */
  readonly fileName?: string;
  /** Unix seconds for the default trusted comment; default now. */
  readonly timestamp?: number;
  /** Sign the raw message (legacy `Ed`) instead of its BLAKE2b-512 (`ED`, the default). */
  readonly legacy?: boolean;
}

/**
 * Signs `message` and returns the `.minisig` file text (four LF-terminated
 * lines). Prehashed `ED` by default, as `minisign -S` does; the global
 * signature covers signature ‖ trusted comment.
 */
export function signMinisign(key: MinisignSecretKey, message: Uint8Array, options: MinisignSignOptions = {}): string {
  lib();
  requireBytes("minisign key id", key.keyId, 8);
  requireUint8Array("message", message);
  const prehashed = options.legacy !== true;
  const trustedComment = options.trustedComment ?? defaultTrustedComment(options, prehashed);
  const trustedBytes = requireCommentText(trustedComment, "trusted comment", maxTrustedCommentBytes);
  const untrustedComment = options.untrustedComment ?? "signature from minisign secret key";
  requireCommentText(untrustedComment, "untrusted comment", maxUntrustedCommentBytes);

  const signed = prehashed ? blake2b(message, 64) : message;
  const signature = ed25519Sign(key.secretKey, signed);
  const globalSignature = ed25519Sign(key.secretKey, concatBytes(signature, trustedBytes));
  const algorithm = asciiBytes(prehashed ? algPrehashed : algLegacy);
  return [
    `${untrustedPrefix}${untrustedComment}`,
    encodeBase64(concatBytes(algorithm, key.keyId, signature)),
    `${trustedPrefix}${trustedComment}`,
    encodeBase64(globalSignature),
    "",
  ].join("\n");
}

function defaultTrustedComment(options: MinisignSignOptions, prehashed: boolean): string {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const file = options.fileName === undefined ? "" : `\tfile:${options.fileName}`;
  return `timestamp:${timestamp}${file}${prehashed ? "\thashed" : ""}`;
}
