import { createHash, type Hash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { envelopeOverhead } from "@mc/wasm";
import type { HeldSnapshot, Snapshot, SnapshotData, SnapshotMeta } from "../domain/types.js";
import { openChunk } from "./file-log-store-blob-chunked.js";
import { chunkedLayout } from "./file-log-store-blob-file.js";
import { damaged } from "./file-log-store-damage.js";

const headerBytes = 64;

/** A snapshot's data read back from its file, chunk by chunk, when a follower needs it. */
export interface FileSnapshotData extends SnapshotData {
  /** SHA-256 of the data (the transfer's checksum), taken as the chunks are read in order and finished on demand. */
  sha256(): Uint8Array;
  close(): void;
}

const readers = new WeakSet<SnapshotData>();

/** Whether `data` reads from a snapshot file (and must be closed). */
export const isFileSnapshotData = (data: SnapshotData): data is FileSnapshotData => readers.has(data);

/** The transfer checksum (SHA-256) of a snapshot's data, in memory or read from its file. */
export function snapshotChecksum(data: SnapshotData): Uint8Array {
  if (isFileSnapshotData(data)) return data.sha256();
  return createHash("sha256").update(data.subarray(0, data.length)).digest();
}

/** The snapshot with its data in memory (read whole from its file if need be: small or first-format snapshots). */
export function inMemory(s: HeldSnapshot): Snapshot {
  return { meta: s.meta, data: s.data instanceof Uint8Array ? s.data : s.data.subarray(0, s.data.length) };
}

export interface SnapshotFileExpect {
  readonly tag: string;
  readonly storeId: Uint8Array;
  readonly key: Uint8Array;
}

export interface OpenedSnapshot {
  readonly meta: SnapshotMeta;
  readonly data: FileSnapshotData;
}

/**
 * Opens the snapshot file at `path` for reading pieces of its data (the body
 * after the u32 metadata length and metadata, as snapshot-file.ts writes
 * it), with its metadata. The open descriptor keeps reading this file's bytes
 * even after a newer snapshot is renamed over it. Undefined when the file is
 * not in the chunked format; damage throws, now or on a later read, naming
 * the file and an offset. Only the header and the chunks holding the
 * metadata are read here.
 */
export function openSnapshotFile(path: string, file: string, expect: SnapshotFileExpect): OpenedSnapshot | undefined {
  const fd = openSync(path, "r");
  try {
    const opened = snapshotReader(fd, file, expect);
    if (!opened) closeSync(fd);
    return opened;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** `openSnapshotFile`'s data when the file holds exactly the snapshot `meta`, else undefined (the caller keeps its bytes in memory). */
export function openSnapshotFileData(path: string, file: string, expect: SnapshotFileExpect, meta: { readonly index: number; readonly term: number }): FileSnapshotData | undefined {
  const opened = openSnapshotFile(path, file, expect);
  if (!opened) return undefined;
  if (opened.meta.index === meta.index && opened.meta.term === meta.term) return opened.data;
  opened.data.close();
  return undefined;
}

function snapshotReader(fd: number, file: string, expect: SnapshotFileExpect): OpenedSnapshot | undefined {
  const head = new Uint8Array(headerBytes);
  const got = readSync(fd, head, 0, headerBytes, 0);
  const layout = chunkedLayout(head.subarray(0, got), fstatSync(fd).size, file, expect);
  if (!layout) return undefined;
  const { index, bodyLength, chunkBytes, n } = layout;

  let last: { i: number; plain: Uint8Array } | undefined;
  let hash: Hash | undefined = createHash("sha256");
  let hashed = 0;
  let digest: Uint8Array | undefined;
  let dataStart = 0;
  let closed = false;

  const readChunk = (i: number): Uint8Array => {
    if (closed) throw new Error(`${file}: read after close`);
    const plainLength = Math.min(chunkBytes, bodyLength - i * chunkBytes);
    const at = headerBytes + i * (chunkBytes + envelopeOverhead + 4);
    const buf = new Uint8Array(plainLength + envelopeOverhead + 4);
    if (readSync(fd, buf, 0, buf.length, at) !== buf.length) throw damaged(file, at, `chunk ${i} cut short`);
    const sealed = buf.subarray(0, plainLength + envelopeOverhead);
    return openChunk(expect.key, head, i, n, sealed, new DataView(buf.buffer).getUint32(sealed.length), file, at);
  };

  const chunk = (i: number): Uint8Array => {
    const plain = last?.i === i ? last.plain : readChunk(i);
    last = { i, plain };
    // The checksum follows the chunks as they are read in order (a transfer reads them so); sha256() reads the rest.
    if (i === hashed && hash && dataStart > 0) {
      const from = Math.max(0, dataStart - i * chunkBytes);
      if (from < plain.length) hash.update(plain.subarray(from));
      hashed++;
    }
    return plain;
  };

  /** Body bytes [from, to): a view when they lie in one chunk. */
  const body = (from: number, to: number): Uint8Array => {
    if (from >= to) return new Uint8Array(0);
    const first = Math.floor(from / chunkBytes);
    const lastChunk = Math.floor((to - 1) / chunkBytes);
    if (first === lastChunk) return chunk(first).subarray(from - first * chunkBytes, to - first * chunkBytes);
    const out = new Uint8Array(to - from);
    for (let i = first; i <= lastChunk; i++) {
      const start = i * chunkBytes;
      const piece = chunk(i).subarray(Math.max(0, from - start), Math.min(chunkBytes, to - start));
      out.set(piece, Math.max(0, start - from));
    }
    return out;
  };

  if (bodyLength < 4) throw damaged(file, headerBytes, "snapshot metadata is unreadable");
  const metaLength = new DataView(body(0, 4).slice().buffer).getUint32(0);
  if (4 + metaLength > bodyLength) throw damaged(file, headerBytes, "snapshot metadata is unreadable");
  // Read outside the try: a damaged chunk says so itself.
  const metaBytes = body(4, 4 + metaLength);
  let meta: SnapshotMeta;
  try {
    meta = JSON.parse(new TextDecoder().decode(metaBytes)) as SnapshotMeta;
  } catch {
    throw damaged(file, headerBytes, "snapshot metadata is unreadable");
  }
  if (meta.index !== index) throw damaged(file, 32, `the header says index ${index}, the snapshot ${String(meta.index)}`);
  dataStart = 4 + metaLength;
  const length = bodyLength - dataStart;

  const reader: FileSnapshotData = {
    length,
    subarray(begin, end) {
      const from = Math.max(0, Math.min(length, begin));
      const to = Math.max(from, Math.min(length, end));
      return body(dataStart + from, dataStart + to);
    },
    sha256() {
      if (digest) return digest;
      while (hashed < n) chunk(hashed);
      digest = new Uint8Array((hash ?? createHash("sha256")).digest());
      hash = undefined;
      return digest;
    },
    close() {
      if (closed) return;
      closed = true;
      last = undefined;
      closeSync(fd);
    },
  };
  readers.add(reader);
  return { meta, data: reader };
}
