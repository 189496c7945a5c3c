import { fullSpeed, pacedBudget, sliceBudget, type Pace, type SliceBudget } from "@mc/shared/node";
import { captureState, type StateCapture } from "../../domain/state-capture.js";
import type { KmsState } from "../../domain/state.js";
import { encodeRecords, isBinaryState } from "./state-binary.js";
import { createBinaryDecoder, type StateDecoder } from "./state-binary-read.js";
import { decodeJson } from "./state-json.js";
import { createCountingSink, createPieceSink } from "./state-sink.js";

// The state's snapshot encoding: written as version 3 (state-binary.ts);
// versions 1 and 2 (JSON, state-json.ts) are still read.

/**
 * Longest stretch of snapshot work between two yields to the event loop. A
 * write's way through the log takes four or five turns of the loop (write,
 * fsync, mark, fsync), and each turn may wait for one stretch: at 4 ms a
 * snapshot beside a stream of writes tripled their median latency, at 1 ms
 * it still doubled it, at 0.25 ms their log appends still took twice as
 * long (issue 26). A yield costs microseconds.
 */
export const snapshotSliceMs = 0.1;

/** A pace, or a budget already shared with other work (the sealing of the same snapshot). */
type Pacing = Pace | SliceBudget;
const budgetFor = (p: Pacing): SliceBudget => ("pause" in p ? p : pacedBudget(snapshotSliceMs, p));

/** `sliceBudget` for loops of a million short steps: looks at the clock every 16 steps, and allocates nothing until it is time to yield. */
function slicer(pacing: Pacing = fullSpeed, ms = snapshotSliceMs): { due(): boolean; pause(): Promise<void> } {
  let start = performance.now();
  let steps = 0;
  const paced = budgetFor(pacing);
  return {
    due: () => (++steps & 15) === 0 && performance.now() - start >= ms,
    async pause() {
      await paced.pause();
      start = performance.now();
    },
  };
}

/** Encodes the state at once (small states, tests, a new data directory). */
export function encodeState(state: KmsState): Uint8Array {
  const sink = createPieceSink();
  for (const _ of encodeRecords(captureState(state), sink));
  return new Uint8Array(Buffer.concat(sink.finish()));
}

/** Bytes of a capture's encoding, counted in slices that yield to the event loop, at `pace`. */
export async function encodedLength(c: StateCapture, pace: Pacing = fullSpeed): Promise<number> {
  const slices = slicer(pace);
  const sink = createCountingSink();
  for (const _ of encodeRecords(c, sink)) if (slices.due()) await slices.pause();
  return sink.total;
}

/**
 * A capture's encoding in pieces of about 64 KiB, made in slices that yield
 * to the event loop: the same bytes as `encodeState` at the captured index,
 * never all in memory at once. With `reuse`, each piece is valid only until
 * the next is asked for (its buffer is then reused). `pace` keeps it
 * between a floor and a cap (pacedBudget).
 */
export async function* encodeCaptureStream(c: StateCapture, reuse = false, pace: Pacing = fullSpeed): AsyncGenerator<Uint8Array> {
  const slices = slicer(pace);
  const sink = createPieceSink(64 * 1024, reuse);
  for (const _ of encodeRecords(c, sink)) {
    if (sink.ready) yield* sink.take();
    if (slices.due()) await slices.pause();
  }
  yield* sink.finish();
}

/**
 * A capture's encoding as a stream for a snapshot file (consensus'
 * SnapshotStream): counted first (the file's header binds the length), then
 * made in 64 KiB pieces, each reused once the next is asked for. One budget
 * paces the counting, the encoding and the sealing that consumes the pieces,
 * so together they keep to `pace`. Nothing the size of the state is
 * allocated: at a million keys, a 178 MB buffer set off a full collection
 * beside the writes, and its pages were 178 B a key of the node's memory.
 */
export async function streamCapture(c: StateCapture, pace: Pace = fullSpeed): Promise<{ length: number; pieces: AsyncIterable<Uint8Array>; budget: SliceBudget }> {
  const budget = pacedBudget(snapshotSliceMs, pace);
  const length = await encodedLength(c, budget);
  return { length, pieces: encodeCaptureStream(c, true, budget), budget };
}

/**
 * Decodes a body of any version as it arrives in pieces. Version 3 decodes
 * piece by piece; the JSON versions (older snapshots only, read once before
 * they are rewritten) are gathered and decoded at the end.
 */
export function createStateDecoder(): StateDecoder {
  let binary: StateDecoder | undefined;
  let json: Uint8Array[] | undefined;
  return {
    push(chunk) {
      if (!binary && !json) {
        // A JSON body starts with "{"; a version 3 body with its magic.
        if (chunk.length === 0) return;
        if (chunk[0] === 0x7b) json = [];
        else binary = createBinaryDecoder();
      }
      if (binary) binary.push(chunk);
      else json?.push(new Uint8Array(chunk));
    },
    end() {
      if (binary) return binary.end();
      const run = decodeJson(Buffer.concat(json ?? []));
      for (let r = run.next(); ; r = run.next()) if (r.done) return r.value;
    },
  };
}

/** The pieces a decoder is fed (a large body in slices). */
const sliceBytes = 64 * 1024;

export function decodeState(data: Uint8Array): KmsState {
  const d = createStateDecoder();
  for (let at = 0; at < data.length; at += sliceBytes) d.push(data.subarray(at, at + sliceBytes));
  return d.end();
}

/** Bytes read a piece at a time: a Uint8Array, or a snapshot read back from its file (consensus' SnapshotData). */
export interface PiecewiseBytes {
  readonly length: number;
  subarray(begin: number, end: number): Uint8Array;
}

/**
 * `decodeState` in slices that yield to the event loop (a follower restoring a
 * large snapshot from its leader, a node from its snapshot file), reading
 * `data` a slice at a time: a snapshot in a file is never whole in memory.
 */
export async function decodeStateSliced(data: PiecewiseBytes): Promise<KmsState> {
  if (!isBinaryState(data.subarray(0, 16))) {
    const budget = sliceBudget(snapshotSliceMs);
    // The first format is one JSON document: read whole.
    const run = decodeJson(data.subarray(0, data.length));
    for (let r = run.next(); ; r = run.next()) {
      if (r.done) return r.value;
      await budget.pause();
    }
  }
  const budget = sliceBudget(snapshotSliceMs);
  const d = createBinaryDecoder();
  for (let at = 0; at < data.length; at += sliceBytes) {
    d.push(data.subarray(at, at + sliceBytes));
    await budget.pause();
  }
  return d.end();
}
