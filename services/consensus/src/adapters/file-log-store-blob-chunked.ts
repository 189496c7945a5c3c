import { envelopeOverhead, open, seal } from "@mc/wasm";
import { crc32 } from "./crc32.js";
import { damaged } from "./file-log-store-damage.js";
import { tagBytes } from "./file-log-store-format.js";
import type { BlobHeader } from "./file-log-store-blob.js";
import { fullSpeed, pacedBudget, type Pace, type SliceBudget } from "@mc/shared/node";

/**
 * A sealed blob in chunks (version 3), so that neither writing nor sealing a
 * large snapshot holds the event loop for long:
 *
 *   0   64  header: magic "mcblob3\n", tag (8 bytes), store id (16), u64 index,
 *           u64 body length, u32 chunk length, zeros, crc32 of bytes 0..60
 *   64  …   chunk i (i = 0 … n-1, n = max(1, ceil(body / chunk))):
 *           the i-th chunk-length slice of the body sealed with associated
 *           data (the 64 header bytes, u64 i, u8 1 on the last chunk else 0),
 *           then the crc32 of those sealed bytes
 *
 * The header (with the index, body length and chunk length) is bound into
 * every chunk and the last chunk says it is last, so chunks cannot be
 * reordered, dropped, cut off or moved to another file. Written only by
 * atomic replace: any mismatch is damage.
 */
export const chunkedBlobMagic = new TextEncoder().encode("mcblob3\n");
const headerBytes = 64;
/** Seals in about a millisecond or two on the WASM core. */
export const defaultChunkBytes = 256 * 1024;

function chunkCount(bodyLength: number, chunkBytes: number): number {
  return Math.max(1, Math.ceil(bodyLength / chunkBytes));
}

/**
 * Checks chunk `i` of `n` (its sealed bytes and the crc32 stored after them)
 * and opens it; every failure is damage naming `file` and the chunk's offset `at`.
 */
export function openChunk(key: Uint8Array, header: Uint8Array, i: number, n: number, sealed: Uint8Array, sum: number, file: string, at: number): Uint8Array {
  if (crc32(sealed) !== sum) throw damaged(file, at, `chunk ${i} checksum mismatch`);
  try {
    return open(key, sealed, chunkAd(header, i, i === n - 1));
  } catch {
    throw damaged(file, at, `chunk ${i} does not open under the root key`);
  }
}

export function chunkAd(header: Uint8Array, i: number, last: boolean): Uint8Array {
  const out = new Uint8Array(headerBytes + 9);
  out.set(header, 0);
  new DataView(out.buffer).setBigUint64(headerBytes, BigInt(i));
  out[headerBytes + 8] = last ? 1 : 0;
  return out;
}

function encodeHeader(h: BlobHeader, bodyLength: number, chunkBytes: number): Uint8Array {
  const out = new Uint8Array(headerBytes);
  const view = new DataView(out.buffer);
  out.set(chunkedBlobMagic, 0);
  out.set(tagBytes(h.tag), 8);
  out.set(h.storeId.subarray(0, 16), 16);
  view.setBigUint64(32, BigInt(h.index));
  view.setBigUint64(40, BigInt(bodyLength));
  view.setUint32(48, chunkBytes);
  view.setUint32(60, crc32(out.subarray(0, 60)));
  return out;
}

/** Bytes [from, to) of the parts taken as one body; copies only when the range spans two parts. */
function range(parts: readonly Uint8Array[], from: number, to: number): Uint8Array {
  let start = 0;
  const pieces: Uint8Array[] = [];
  for (const p of parts) {
    const end = start + p.length;
    if (end > from && start < to) pieces.push(p.subarray(Math.max(0, from - start), Math.min(p.length, to - start)));
    start = end;
  }
  if (pieces.length === 1) return pieces[0] as Uint8Array;
  const out = new Uint8Array(to - from);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export interface ChunkedBlobOptions {
  /** Plain bytes per chunk (default 256 KiB; tests use small ones to get many chunks). */
  readonly chunkBytes?: number;
  /** Longest stretch of sealing between two yields to the event loop, ms (default 4). */
  readonly sliceMs?: number;
  /** Between what share of the thread and of a core sealing runs (pacedBudget); default full speed. */
  readonly pace?: Pace;
  /**
   * A budget shared with whoever makes the body's pieces (sealChunkedBlobStream):
   * encoding and sealing then keep to one pace together, not one each. Takes
   * the place of `sliceMs` and `pace`.
   */
  readonly budget?: SliceBudget;
}

const budgetOf = (o: ChunkedBlobOptions): SliceBudget => o.budget ?? pacedBudget(o.sliceMs ?? 4, o.pace ?? fullSpeed);

/**
 * The file's bytes, piece by piece (header, then each sealed chunk with its
 * checksum); the body is the concatenation of `parts`, which must not change
 * until the last piece was taken. Between chunks it yields to the event loop
 * once it has worked a few milliseconds, whoever consumes it.
 */
export async function* sealChunkedBlob(key: Uint8Array, h: BlobHeader, parts: readonly Uint8Array[], o: ChunkedBlobOptions = {}): AsyncGenerator<Uint8Array> {
  const chunkBytes = o.chunkBytes ?? defaultChunkBytes;
  const bodyLength = parts.reduce((n, p) => n + p.length, 0);
  const n = chunkCount(bodyLength, chunkBytes);
  const header = encodeHeader(h, bodyLength, chunkBytes);
  yield header;
  const budget = budgetOf(o);
  for (let i = 0; i < n; i++) {
    const from = i * chunkBytes;
    const sealed = seal(key, range(parts, from, Math.min(bodyLength, from + chunkBytes)), chunkAd(header, i, i === n - 1));
    const out = new Uint8Array(sealed.length + 4);
    out.set(sealed, 0);
    new DataView(out.buffer).setUint32(sealed.length, crc32(sealed));
    yield out;
    await budget.pause();
  }
}

/**
 * `sealChunkedBlob` of a body that arrives as pieces, never held whole: the
 * header (bound into every chunk) holds the body's length, so the caller
 * gives it first, and a body of any other length throws before its last
 * chunk is sealed.
 */
export async function* sealChunkedBlobStream(
  key: Uint8Array,
  h: BlobHeader,
  bodyLength: number,
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  o: ChunkedBlobOptions = {},
): AsyncGenerator<Uint8Array> {
  const chunkBytes = o.chunkBytes ?? defaultChunkBytes;
  const n = chunkCount(bodyLength, chunkBytes);
  const header = encodeHeader(h, bodyLength, chunkBytes);
  yield header;
  const budget = budgetOf(o);
  // One chunk buffer for the whole body (seal copies it in), and the sealed bytes handed on as they come
  // with their checksum apart: a snapshot of 180 MB must not allocate its size several times over.
  const chunk = new Uint8Array(Math.min(chunkBytes, bodyLength));
  const sizeOf = (i: number): number => Math.max(0, Math.min(chunkBytes, bodyLength - i * chunkBytes));
  let i = 0;
  let size = sizeOf(0);
  let filled = 0;
  let seen = 0;
  const sealed = (): Uint8Array[] => {
    const out = seal(key, chunk.subarray(0, filled), chunkAd(header, i, i === n - 1));
    const sum = new Uint8Array(4);
    new DataView(sum.buffer).setUint32(0, crc32(out));
    i++;
    filled = 0;
    size = sizeOf(i);
    return [out, sum];
  };
  for await (const piece of body) {
    seen += piece.length;
    if (seen > bodyLength) throw new Error(`the body is longer than the ${bodyLength} bytes announced`);
    for (let at = 0; at < piece.length; ) {
      const take = Math.min(piece.length - at, size - filled);
      chunk.set(piece.subarray(at, at + take), filled);
      filled += take;
      at += take;
      if (filled === size && i < n - 1) {
        yield* sealed();
        await budget.pause();
      }
    }
  }
  if (seen !== bodyLength) throw new Error(`the body is ${seen} bytes, ${bodyLength} were announced`);
  yield* sealed();
}

/** The whole file in one buffer (small blobs, tests). */
export async function encodeChunkedBlob(key: Uint8Array, h: BlobHeader, parts: readonly Uint8Array[], o: ChunkedBlobOptions = {}): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  for await (const p of sealChunkedBlob(key, h, parts, o)) pieces.push(p);
  return range(pieces, 0, pieces.reduce((n, p) => n + p.length, 0));
}

export const hasChunkedBlobMagic = (buf: Uint8Array): boolean => buf.length >= chunkedBlobMagic.length && chunkedBlobMagic.every((b, i) => buf[i] === b);

/**
 * Checks and opens a chunked blob whose header (magic, checksum, tag and
 * store id) the caller already checked; every failure is damage naming
 * `file` and an offset.
 */
export function openChunkedBlob(buf: Uint8Array, file: string, key: Uint8Array): { index: number; body: Uint8Array } {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const index = Number(view.getBigUint64(32));
  const bodyLength = Number(view.getBigUint64(40));
  const chunkBytes = view.getUint32(48);
  if (chunkBytes === 0) throw damaged(file, 48, "the header says chunks of 0 bytes");
  const n = chunkCount(bodyLength, chunkBytes);
  const expected = headerBytes + bodyLength + n * (envelopeOverhead + 4);
  if (expected !== buf.length) throw damaged(file, Math.min(buf.length, expected), `the header says ${bodyLength} bytes in ${n} chunks (a ${expected}-byte file), the file holds ${buf.length}`);
  const header = buf.subarray(0, headerBytes);
  const body = new Uint8Array(bodyLength);
  let at = headerBytes;
  for (let i = 0; i < n; i++) {
    const plainLength = Math.min(chunkBytes, bodyLength - i * chunkBytes);
    const sealed = buf.subarray(at, at + plainLength + envelopeOverhead);
    body.set(openChunk(key, header, i, n, sealed, view.getUint32(at + sealed.length), file, at), i * chunkBytes);
    at += sealed.length + 4;
  }
  return { index, body };
}
