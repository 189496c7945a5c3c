import { open as openFile } from "node:fs/promises";
import { envelopeOverhead } from "@mc/wasm";
import { checkBlobHeader } from "./file-log-store-blob.js";
import { hasChunkedBlobMagic, openChunk } from "./file-log-store-blob-chunked.js";
import { damaged } from "./file-log-store-damage.js";

const headerBytes = 64;
const blockBytes = 4 * 2 ** 20;

export interface ChunkedLayout {
  readonly index: number;
  readonly bodyLength: number;
  readonly chunkBytes: number;
  /** Number of chunks. */
  readonly n: number;
}

/**
 * The layout a chunked blob file's header (its first bytes, of a file of
 * `size` bytes) gives, once checked against the file's size; undefined when
 * the file is not a chunked blob. Every failure is damage.
 */
export function chunkedLayout(head: Uint8Array, size: number, file: string, expect: { tag: string; storeId: Uint8Array }): ChunkedLayout | undefined {
  if (!hasChunkedBlobMagic(head)) return undefined;
  checkBlobHeader(head, size, file, expect);
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const index = Number(view.getBigUint64(32));
  const bodyLength = Number(view.getBigUint64(40));
  const chunkBytes = view.getUint32(48);
  if (chunkBytes === 0) throw damaged(file, 48, "the header says chunks of 0 bytes");
  const n = Math.max(1, Math.ceil(bodyLength / chunkBytes));
  const expected = headerBytes + bodyLength + n * (envelopeOverhead + 4);
  if (expected !== size) throw damaged(file, Math.min(size, expected), `the header says ${bodyLength} bytes in ${n} chunks (a ${expected}-byte file), the file holds ${size}`);
  return { index, bodyLength, chunkBytes, n };
}

/**
 * Reads a chunked blob file (mcblob3) a chunk at a time, handing each
 * opened chunk of the body to `onChunk` (which may keep no reference to it
 * past the call) in order, so a large snapshot is never in memory twice, or
 * whole. Checks exactly what `readBlob` checks; every failure is damage
 * naming `file` and an offset, and whatever `onChunk` throws ends the read.
 * Resolves with the blob's index, or with undefined when the file is not a
 * chunked blob (the caller reads it whole with `readBlob`).
 */
export async function readChunkedBlobFile(
  path: string,
  file: string,
  expect: { tag: string; storeId: Uint8Array; key: Uint8Array },
  onChunk: (plain: Uint8Array) => void,
): Promise<{ index: number } | undefined> {
  const handle = await openFile(path, "r");
  try {
    const { size } = await handle.stat();
    const head = new Uint8Array(headerBytes);
    const { bytesRead } = await handle.read(head, 0, headerBytes, 0);
    const layout = chunkedLayout(head.subarray(0, bytesRead), size, file, expect);
    if (!layout) return undefined;
    const { index, bodyLength, chunkBytes, n } = layout;
    // Read in blocks of several chunks: a read per 64 KiB chunk costs a trip to the thread pool each.
    const block = new Uint8Array(Math.min(size - headerBytes, Math.max(blockBytes, Math.min(chunkBytes, bodyLength) + envelopeOverhead + 4)));
    const blockView = new DataView(block.buffer);
    let blockStart = headerBytes;
    let blockEnd = headerBytes;
    let at = headerBytes;
    for (let i = 0; i < n; i++) {
      const plainLength = Math.min(chunkBytes, bodyLength - i * chunkBytes);
      const length = plainLength + envelopeOverhead;
      if (at + length + 4 > blockEnd) {
        const got = (await handle.read(block, 0, Math.min(block.length, size - at), at)).bytesRead;
        blockStart = at;
        blockEnd = at + got;
        if (at + length + 4 > blockEnd) throw damaged(file, blockEnd, `chunk ${i} cut short`);
      }
      const sealed = block.subarray(at - blockStart, at - blockStart + length);
      onChunk(openChunk(expect.key, head, i, n, sealed, blockView.getUint32(at - blockStart + length), file, at));
      at += length + 4;
    }
    return { index };
  } finally {
    await handle.close();
  }
}
