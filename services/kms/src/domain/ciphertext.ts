import { AppError } from "@mc/shared/errors";

/** Contract §3: tag ‖ u32be(version) ‖ 24-byte nonce ‖ sealed ‖ 16-byte tag. */
export const ciphertextTag = 0x01;
export const nonceBytes = 24;
const headerBytes = 1 + 4 + nonceBytes;
export const minCiphertextBytes = headerBytes + 16;

export function notAuthentic(): AppError {
  return new AppError("invalid_argument", "decryption failed: ciphertext is not authentic");
}

export function encodeCiphertext(version: number, nonce: Uint8Array, sealed: Uint8Array): Uint8Array {
  const out = new Uint8Array(headerBytes + sealed.length);
  out[0] = ciphertextTag;
  new DataView(out.buffer).setUint32(1, version, false);
  out.set(nonce, 5);
  out.set(sealed, headerBytes);
  return out;
}

export interface ParsedCiphertext {
  readonly version: number;
  readonly nonce: Uint8Array;
  readonly sealed: Uint8Array;
}

/** Any malformed input is the one "not authentic" error, never a hint why. */
export function decodeCiphertext(bytes: Uint8Array): ParsedCiphertext {
  if (bytes.length < minCiphertextBytes || bytes[0] !== ciphertextTag) throw notAuthentic();
  const version = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1, false);
  return { version, nonce: bytes.subarray(5, headerBytes), sealed: bytes.subarray(headerBytes) };
}

const utf8 = new TextEncoder();

/** ad = 0x01 ‖ u32be(version) ‖ u8(len enclave) ‖ enclave ‖ u8(len name) ‖ name ‖ context */
export function associatedData(version: number, enclave: string, name: string, context: Uint8Array): Uint8Array {
  const e = utf8.encode(enclave);
  const n = utf8.encode(name);
  const out = new Uint8Array(1 + 4 + 1 + e.length + 1 + n.length + context.length);
  const view = new DataView(out.buffer);
  out[0] = ciphertextTag;
  view.setUint32(1, version, false);
  let at = 5;
  out[at++] = e.length;
  out.set(e, at);
  at += e.length;
  out[at++] = n.length;
  out.set(n, at);
  at += n.length;
  out.set(context, at);
  return out;
}
