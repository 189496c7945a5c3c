import { AppError } from "@mc/shared/errors";

/**
 * Shared pieces of minisign's text formats (layouts in
 * tests/vectors/minisign/FORMAT.md): algorithm tags, strict base64, line
 * splitting and the key id display form.
 */
export const algLegacy = "Ed";
export const algPrehashed = "ED";
export const untrustedPrefix = "untrusted comment: ";
export const trustedPrefix = "trusted comment: ";

export type MinisignFailure =
  | "malformed"
  | "key_id_mismatch"
  | "legacy_rejected"
  | "bad_signature"
  | "bad_trusted_comment"
  | "wrong_password";

/** Every minisign error is `invalid_argument`; `details.minisign` says which check failed. */
export function minisignError(failure: MinisignFailure, message: string): AppError {
  return new AppError("invalid_argument", message, { details: { minisign: failure } });
}

export function malformed(what: string, problem: string): AppError {
  return minisignError("malformed", `${what} is malformed: ${problem}`);
}

/** Text of a file given as a string or as bytes (which must be valid UTF-8). */
export function readText(input: string | Uint8Array, what: string): string {
  if (typeof input === "string") return input;
  if (!(input instanceof Uint8Array)) throw malformed(what, "expected a string or a Uint8Array");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(input);
  } catch {
    throw malformed(what, "not valid UTF-8");
  }
}

/**
 * Lines as the reference reader sees them: split on LF, one trailing CR
 * stripped per line (so CRLF files work), any other CR rejected. A final
 * newline does not make an extra line.
 */
export function splitLines(text: string, what: string): string[] {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return body.split("\n").map((line) => {
    const stripped = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (stripped.includes("\r")) throw malformed(what, "stray carriage return");
    return stripped;
  });
}

/** Standard base64 with padding, canonical only: anything that does not re-encode identically is rejected. */
export function decodeBase64(text: string, length: number, what: string): Uint8Array {
  const buffer = Buffer.from(text, "base64");
  if (buffer.toString("base64") !== text) throw malformed(what, "not canonical base64");
  if (buffer.length !== length) throw malformed(what, `expected ${length} bytes, got ${buffer.length}`);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
}

export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
}

export function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

export function asciiText(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}

/**
 * The key id as minisign displays it: the 8 bytes read as a little-endian
 * u64, printed as 16 upper-case hex digits (`%016" PRIX64`).
 */
export function minisignKeyIdHex(keyId: Uint8Array): string {
  return Buffer.from(keyId).reverse().toString("hex").toUpperCase();
}

// Tab is minisign's field separator; every other control character (and
// unpaired surrogates, which have no UTF-8 form) would be rejected or mangled
// by the reference reader.
const forbiddenInComment = /[\u0000-\u0008\u000a-\u001f\u007f]|\p{Cs}/u;

/** Checks comment text to be written to a file; `maxBytes` is its UTF-8 limit. */
export function requireCommentText(text: string, what: string, maxBytes: number): Uint8Array {
  if (typeof text !== "string" || forbiddenInComment.test(text)) {
    throw new AppError("invalid_argument", `${what} must be one line of printable text (tabs allowed)`);
  }
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > maxBytes) {
    throw new AppError("invalid_argument", `${what} must be at most ${maxBytes} bytes, got ${bytes.length}`);
  }
  return bytes;
}
