import type { FileHandle } from "node:fs/promises";
import type { RangeSink } from "../types.js";

/** Buffers for ranges read straight into them, handed back after their write: the pages are faulted in once per download. */
export interface BufferPool {
  take(): Buffer;
  give(buffer: Buffer): void;
}

export function createBufferPool(bytes: number): BufferPool {
  const free: Buffer[] = [];
  return { take: () => free.pop() ?? Buffer.allocUnsafe(bytes), give: (buffer) => void free.push(buffer) };
}

export interface FileRangeSink extends RangeSink {
  /** Writes what is left, waits for every write; resolves with the bytes written from the start. */
  close(): Promise<number>;
}

/** Writes of one range in flight before its source is asked to wait. */
const maxInFlight = 2;

/**
 * A range's sink into `handle` from `start`: each full buffer is written at
 * its offset while the next one fills. A failed write fails the next put()
 * and close().
 */
export function createFileRangeSink(handle: FileHandle, start: number, pool: BufferPool, onWritten: (bytes: number) => void): FileRangeSink {
  let buffer = pool.take();
  let fill = 0;
  let position = start;
  let inFlight = 0;
  let failure: unknown;
  let waiters: Array<() => void> = [];
  const settle = (): void => {
    const ready = waiters;
    waiters = [];
    for (const wake of ready) wake();
  };
  const waitForRoom = (limit: number): Promise<void> | undefined => {
    if (failure === undefined && inFlight <= limit) return undefined;
    return new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (failure !== undefined) reject(failure);
        else if (inFlight <= limit) resolve();
        else waiters.push(check);
      };
      check();
    });
  };
  const flush = (): void => {
    if (fill === 0) return;
    const data = buffer;
    const bytes = fill;
    const at = position;
    position += bytes;
    fill = 0;
    buffer = pool.take();
    inFlight++;
    handle.write(data, 0, bytes, at).then(
      ({ bytesWritten }) => {
        inFlight--;
        // A short write means the disk stopped taking data (full): never leave a hole.
        if (bytesWritten !== bytes) failure ??= new Error(`short write at ${at}: ${bytesWritten} of ${bytes} bytes`);
        else {
          pool.give(data);
          onWritten(bytes);
        }
        settle();
      },
      (err: unknown) => {
        inFlight--;
        failure ??= err;
        settle();
      },
    );
  };
  return {
    room: () => buffer.subarray(fill),
    put(n) {
      fill += n;
      if (fill === buffer.length) flush();
      return waitForRoom(maxInFlight - 1);
    },
    async close() {
      flush();
      await waitForRoom(0);
      pool.give(buffer);
      return position - start;
    },
  };
}
