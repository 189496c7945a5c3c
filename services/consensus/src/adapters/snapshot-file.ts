import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "@mc/shared/node";
import { open } from "@mc/wasm";
import type { HeldSnapshot, Snapshot, SnapshotData, SnapshotMeta } from "../domain/types.js";
import type { SliceBudget } from "@mc/shared/node";
import { crc32 } from "./crc32.js";
import { hasBlobMagic, readBlob } from "./file-log-store-blob.js";
import { defaultChunkBytes, sealChunkedBlob, sealChunkedBlobStream, type ChunkedBlobOptions } from "./file-log-store-blob-chunked.js";
import { damaged } from "./file-log-store-damage.js";
import { openSnapshotFile } from "./snapshot-file-data.js";

export const snapshotFileName = "snapshot.bin";
export const snapshotTag = "raft-snp";
const tag = snapshotTag;
const v1Ad = new TextEncoder().encode("consensus-snapshot");

export { syncDir } from "@mc/shared/node";

/**
 * A snapshot's data as its state machine encodes it, never whole in memory:
 * its length first (the file's header binds it), then its bytes in pieces,
 * each consumed before the next is asked for. `budget`, when given, paces
 * the sealing together with the encoding that makes the pieces.
 */
export interface SnapshotStream {
  readonly length: number;
  readonly pieces: AsyncIterable<Uint8Array>;
  readonly budget?: SliceBudget;
}

export const isSnapshotStream = (data: SnapshotData | SnapshotStream): data is SnapshotStream => "pieces" in data;

/** The body starts with u32 metadata length ‖ metadata JSON; the data follows. */
function metaHead(meta: SnapshotMeta): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(meta));
  const head = new Uint8Array(4 + json.length);
  new DataView(head.buffer).setUint32(0, json.length);
  head.set(json, 4);
  return head;
}

/** The head, then the data a slice at a time (data read from a file is never read whole). */
async function* bodyPieces(head: Uint8Array, data: SnapshotData | SnapshotStream): AsyncGenerator<Uint8Array> {
  yield head;
  if (isSnapshotStream(data)) return yield* data.pieces;
  for (let at = 0; at < data.length; at += defaultChunkBytes) yield data.subarray(at, Math.min(data.length, at + defaultChunkBytes));
}

function decodeBody(plain: Uint8Array, file: string, offset: number): Snapshot {
  try {
    const metaLength = new DataView(plain.buffer, plain.byteOffset).getUint32(0);
    const meta = JSON.parse(new TextDecoder().decode(plain.subarray(4, 4 + metaLength))) as SnapshotMeta;
    // A view, not a copy: `plain` is this read's own buffer, and copying a large snapshot cost as much as opening it.
    return { meta, data: plain.subarray(4 + metaLength) };
  } catch {
    throw damaged(file, offset, "snapshot metadata is unreadable");
  }
}

/**
 * Atomic replace: temp file, fsync, rename over the old one, fsync the
 * directory. Sealed and written chunk by chunk, yielding in between, so a
 * large snapshot never holds the event loop for long, and synced every MiB
 * (writeFileAtomic's default for streamed data), so the log's fsyncs beside
 * it never wait for a whole snapshot's dirty pages.
 */
export async function writeSnapshotFile(dir: string, key: Uint8Array, snapshot: { readonly meta: SnapshotMeta; readonly data: SnapshotData | SnapshotStream }, storeId: Uint8Array, o: ChunkedBlobOptions = {}): Promise<void> {
  const { meta, data } = snapshot;
  const h = { tag, storeId, index: meta.index };
  const head = metaHead(meta);
  // Bytes in memory are sealed in place; streamed or file-backed data is copied a chunk at a time.
  const sealed =
    data instanceof Uint8Array
      ? sealChunkedBlob(key, h, [head, data], o)
      : sealChunkedBlobStream(key, h, head.length + data.length, bodyPieces(head, data), isSnapshotStream(data) && data.budget ? { ...o, budget: data.budget } : o);
  await writeFileAtomic(join(dir, snapshotFileName), sealed, 0o600);
}

export interface SnapshotRead {
  /** Its data reads from the file (snapshot-file-data.ts) when the file is chunked, else it is in memory. */
  readonly snapshot: HeldSnapshot;
  /** Written in the first format (only read when the caller allows it). */
  readonly legacy: boolean;
}

/**
 * Reads the snapshot file, read-only; undefined when there is none. Damage
 * throws with the file and offset. A chunked file (the current format) is
 * checked whole, every chunk read and opened, but not held: its data is read
 * again from the file, a piece at a time, by whoever restores or sends it
 * (at a million keys, holding it would be 300 MB twice over). The caller
 * closes it. The first format (crc32 ‖ sealed) is read only with `legacy`,
 * and strictly.
 */
export async function readSnapshotFile(dir: string, key: Uint8Array, o: { storeId: Uint8Array; legacy: boolean; label: string }): Promise<SnapshotRead | undefined> {
  const path = join(dir, snapshotFileName);
  const file = `${o.label}${snapshotFileName}`;
  let buf: Uint8Array;
  try {
    const opened = openSnapshotFile(path, file, { tag, storeId: o.storeId, key });
    if (opened) {
      try {
        // Reads and opens every chunk now, so damage is refused before anything is written.
        opened.data.sha256();
      } catch (err) {
        opened.data.close();
        throw err;
      }
      return { snapshot: opened, legacy: false };
    }
    buf = await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  if (hasBlobMagic(buf) || !o.legacy) {
    const { index, body } = readBlob(buf, file, { tag, storeId: o.storeId, key });
    const snapshot = decodeBody(body, file, 64);
    if (snapshot.meta.index !== index) throw damaged(file, 32, `the header says index ${index}, the snapshot ${snapshot.meta.index}`);
    return { snapshot, legacy: false };
  }
  if (buf.length < 4) throw damaged(file, 0, "shorter than its checksum");
  const sealed = buf.subarray(4);
  if (crc32(sealed) !== new DataView(buf.buffer, buf.byteOffset).getUint32(0)) throw damaged(file, 0, "checksum mismatch");
  let plain: Uint8Array;
  try {
    plain = open(key, sealed, v1Ad);
  } catch {
    throw damaged(file, 4, "does not open under the root key");
  }
  return { snapshot: decodeBody(plain, file, 4), legacy: true };
}
