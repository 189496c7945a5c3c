import { readFile } from "node:fs/promises";
import { damaged, hasBlobMagic, readBlob, readChunkedBlobFile, sealChunkedBlobStream } from "@mc/consensus";
import { open } from "@mc/wasm";
import { captureState } from "../../domain/state-capture.js";
import type { KmsState } from "../../domain/state.js";
import { createStateDecoder, decodeState, encodeCaptureStream, encodedLength, snapshotSliceMs } from "./state-codec.js";

export const snapshotFileName = "snapshot.bin";
const tag = "kms-snap";
const v1Ad = new TextEncoder().encode("kms:snapshot:v1");
/** Chunks of 16 KiB seal in about 0.1 ms: one seal is one stretch the event loop waits for (state-codec.ts). */
const chunkBytes = 16 * 1024;

/**
 * The state as a sealed blob bound to this directory and to its applied
 * index, in pieces to write as they come. The state is captured at the call;
 * its length is counted, then it is encoded and sealed a chunk at a time, in
 * slices that yield to the event loop, so the body is never in memory whole
 * (the sealer copies each encoded piece before it asks for the next, so the
 * encoder reuses their buffers).
 */
export function sealSnapshot(rootKey: Uint8Array, storeId: Uint8Array, state: KmsState): AsyncIterable<Uint8Array> {
  const capture = captureState(state);
  async function* pieces(): AsyncGenerator<Uint8Array> {
    const length = await encodedLength(capture);
    yield* sealChunkedBlobStream(rootKey, { tag, storeId, index: Number(capture.appliedIndex) }, length, encodeCaptureStream(capture, true), { chunkBytes, sliceMs: snapshotSliceMs });
  }
  return pieces();
}

const unparsable = (offset: number): Error => damaged(snapshotFileName, offset, "the state inside does not parse");

function stateOf(plain: Uint8Array, offset: number): KmsState {
  try {
    return decodeState(plain);
  } catch {
    throw unparsable(offset);
  }
}

function checkIndex(state: KmsState, index: number): KmsState {
  if (state.appliedIndex !== BigInt(index)) throw damaged(snapshotFileName, 32, `the header says index ${index}, the state ${state.appliedIndex}`);
  return state;
}

/**
 * Reads snapshot.bin from its bytes (every failure is damage). The first
 * format, a bare sealed JSON state, is accepted only while the directory is
 * being rewritten.
 */
export function readSnapshot(buf: Uint8Array, o: { rootKey: Uint8Array; storeId: Uint8Array; legacy: boolean }): { state: KmsState; legacy: boolean } {
  if (hasBlobMagic(buf) || !o.legacy) {
    const { index, body } = readBlob(buf, snapshotFileName, { tag, storeId: o.storeId, key: o.rootKey });
    return { state: checkIndex(stateOf(body, 64), index), legacy: false };
  }
  let plain: Uint8Array;
  try {
    plain = open(o.rootKey, buf, v1Ad);
  } catch {
    throw damaged(snapshotFileName, 0, "first-format snapshot does not open under the root key");
  }
  return { state: stateOf(plain, 0), legacy: true };
}

/**
 * Reads snapshot.bin at `path` as `readSnapshot` does. A chunked file (every
 * snapshot written since version 3 of the blob) is read, opened and decoded
 * a chunk at a time, so loading a million keys never holds the file or its
 * body whole; older files are read whole.
 */
export async function readSnapshotFile(path: string, o: { rootKey: Uint8Array; storeId: Uint8Array; legacy: boolean }): Promise<{ state: KmsState; legacy: boolean }> {
  const decoder = createStateDecoder();
  const read = await readChunkedBlobFile(path, snapshotFileName, { tag, storeId: o.storeId, key: o.rootKey }, (plain) => {
    try {
      decoder.push(plain);
    } catch {
      throw unparsable(64);
    }
  });
  if (!read) return readSnapshot(new Uint8Array(await readFile(path)), o);
  let state: KmsState;
  try {
    state = decoder.end();
  } catch {
    throw unparsable(64);
  }
  return { state: checkIndex(state, read.index), legacy: false };
}
