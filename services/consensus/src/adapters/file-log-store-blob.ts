import { open, seal } from "@mc/wasm";
import { crc32 } from "./crc32.js";
import { hasChunkedBlobMagic, openChunkedBlob } from "./file-log-store-blob-chunked.js";
import { damaged } from "./file-log-store-damage.js";
import { tagBytes } from "./file-log-store-format.js";

/**
 * A sealed single-blob file (v2 snapshots, Raft and KMS alike):
 *
 *   0   64  header: magic "mcblob2\n", tag (8 bytes), store id (16), u64 index,
 *           u64 body length, zeros, crc32 of bytes 0..60
 *   64  n   body sealed with associated data (magic, tag, store id, index)
 *   end 4   crc32 of the sealed body
 *
 * Written only by atomic replace (temp, fsync, rename, fsync of the folder),
 * so a crash never leaves half a file: any mismatch is damage. New files are
 * written in chunks (file-log-store-blob-chunked.ts, "mcblob3"); `readBlob`
 * reads both.
 */
const blobMagic = new TextEncoder().encode("mcblob2\n");
const headerBytes = 64;

export interface BlobHeader {
  readonly tag: string;
  readonly storeId: Uint8Array;
  /** The log index the blob is as of (a snapshot's last included entry). */
  readonly index: number;
}

function ad(h: BlobHeader): Uint8Array {
  const out = new Uint8Array(40);
  out.set(blobMagic, 0);
  out.set(tagBytes(h.tag), 8);
  out.set(h.storeId.subarray(0, 16), 16);
  new DataView(out.buffer).setBigUint64(32, BigInt(h.index));
  return out;
}

/** A blob of the second format in one seal; new files are chunked (`sealChunkedBlob`): this writes fixtures of older directories. */
export function encodeBlob(key: Uint8Array, h: BlobHeader, body: Uint8Array): Uint8Array {
  const sealed = seal(key, body, ad(h));
  const out = new Uint8Array(headerBytes + sealed.length + 4);
  const view = new DataView(out.buffer);
  out.set(blobMagic, 0);
  out.set(tagBytes(h.tag), 8);
  out.set(h.storeId.subarray(0, 16), 16);
  view.setBigUint64(32, BigInt(h.index));
  view.setBigUint64(40, BigInt(sealed.length));
  view.setUint32(60, crc32(out.subarray(0, 60)));
  out.set(sealed, headerBytes);
  view.setUint32(headerBytes + sealed.length, crc32(sealed));
  return out;
}

const hasV2Magic = (buf: Uint8Array): boolean => buf.length >= blobMagic.length && blobMagic.every((b, i) => buf[i] === b);

/** A blob file of either version (the caller then reads it with `readBlob`). */
export function hasBlobMagic(buf: Uint8Array): boolean {
  return hasV2Magic(buf) || hasChunkedBlobMagic(buf);
}

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Checks a blob file's header (its first 64 bytes, of a file of `fileLength`
 * bytes) against what the caller expects; every failure is damage.
 */
export function checkBlobHeader(head: Uint8Array, fileLength: number, file: string, expect: { tag: string; storeId: Uint8Array }): void {
  if (fileLength < headerBytes + 4) throw damaged(file, 0, `the file is ${fileLength} bytes, shorter than its header`);
  if (!hasBlobMagic(head)) throw damaged(file, 0, "not a snapshot file (wrong magic)");
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (view.getUint32(60) !== crc32(head.subarray(0, 60))) throw damaged(file, 0, "header checksum mismatch");
  if (!same(head.subarray(8, 16), tagBytes(expect.tag))) throw damaged(file, 8, `not a ${expect.tag} file`);
  if (!same(head.subarray(16, 32), expect.storeId)) throw damaged(file, 16, "the file belongs to another data directory");
}

/** Checks and opens a blob file; every failure is damage naming `file` and an offset. */
export function readBlob(buf: Uint8Array, file: string, expect: { tag: string; storeId: Uint8Array; key: Uint8Array }): { index: number; body: Uint8Array } {
  checkBlobHeader(buf.subarray(0, headerBytes), buf.length, file, expect);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (hasChunkedBlobMagic(buf)) return openChunkedBlob(buf, file, expect.key);
  const index = Number(view.getBigUint64(32));
  const length = Number(view.getBigUint64(40));
  if (headerBytes + length + 4 !== buf.length) throw damaged(file, Math.min(buf.length, headerBytes + length), `the header says ${length} sealed bytes, the file holds ${buf.length - headerBytes - 4}`);
  const sealed = buf.subarray(headerBytes, headerBytes + length);
  if (crc32(sealed) !== view.getUint32(headerBytes + length)) throw damaged(file, headerBytes, "checksum mismatch");
  try {
    return { index, body: open(expect.key, sealed, ad({ tag: expect.tag, storeId: expect.storeId, index })) };
  } catch {
    throw damaged(file, headerBytes, "does not open under the root key");
  }
}
