import { damaged, hasBlobMagic, readBlob, sealChunkedBlob } from "@mc/consensus";
import { open } from "@mc/wasm";
import { captureState } from "../../domain/state-capture.js";
import type { KmsState } from "../../domain/state.js";
import { decodeState, encodeCapture } from "./state-codec.js";

export const snapshotFileName = "snapshot.bin";
const tag = "kms-snap";
const v1Ad = new TextEncoder().encode("kms:snapshot:v1");

/**
 * The state as a sealed blob bound to this directory and to its applied
 * index, in pieces to write as they come. The state is captured at the call;
 * encoding and sealing then run in slices that yield to the event loop.
 */
export function sealSnapshot(rootKey: Uint8Array, storeId: Uint8Array, state: KmsState): AsyncIterable<Uint8Array> {
  const capture = captureState(state);
  async function* pieces(): AsyncGenerator<Uint8Array> {
    const body = await encodeCapture(capture);
    yield* sealChunkedBlob(rootKey, { tag, storeId, index: Number(capture.appliedIndex) }, [body]);
  }
  return pieces();
}

function stateOf(plain: Uint8Array, offset: number): KmsState {
  try {
    return decodeState(plain);
  } catch {
    throw damaged(snapshotFileName, offset, "the state inside does not parse");
  }
}

/**
 * Reads snapshot.bin (every failure is damage). The first format, a bare
 * sealed JSON state, is accepted only while the directory is being rewritten.
 */
export function readSnapshot(buf: Uint8Array, o: { rootKey: Uint8Array; storeId: Uint8Array; legacy: boolean }): { state: KmsState; legacy: boolean } {
  if (hasBlobMagic(buf) || !o.legacy) {
    const { index, body } = readBlob(buf, snapshotFileName, { tag, storeId: o.storeId, key: o.rootKey });
    const state = stateOf(body, 64);
    if (state.appliedIndex !== BigInt(index)) throw damaged(snapshotFileName, 32, `the header says index ${index}, the state ${state.appliedIndex}`);
    return { state, legacy: false };
  }
  let plain: Uint8Array;
  try {
    plain = open(o.rootKey, buf, v1Ad);
  } catch {
    throw damaged(snapshotFileName, 0, "first-format snapshot does not open under the root key");
  }
  return { state: stateOf(plain, 0), legacy: true };
}
