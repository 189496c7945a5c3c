import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import type { RangeWriteOptions } from "./types.js";

/** A temp file beside the target: nothing appears under the final name until rename. */
export function tempPathFor(key: string): string {
  return join(dirname(key), `.${key.slice(key.lastIndexOf("/") + 1)}.mc-part-${process.pid}-${Date.now()}`);
}

/**
 * Fetches `size` bytes as ranges, `parallel` at a time, each written at its
 * offset; memory stays at one socket buffer per range in flight.
 */
export async function writeRangesToFile(key: string, size: number, fetch: (offset: number, length: number) => Promise<Readable>, options: RangeWriteOptions): Promise<void> {
  await mkdir(dirname(key), { recursive: true });
  const temp = tempPathFor(key);
  const handle = await open(temp, "w");
  let done = 0;
  let next = 0;
  let failure: unknown;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < size) {
      if (options.signal?.aborted) throw options.signal.reason;
      const offset = next;
      const length = Math.min(options.rangeSize, size - offset);
      next += length;
      const stream = await fetch(offset, length);
      let position = offset;
      // Socket chunks are ~64 KiB: gather them into 1 MiB writes (fewer thread-pool round trips).
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async (): Promise<void> => {
        if (pendingBytes === 0) return;
        const data = pending.length === 1 ? (pending[0] ?? Buffer.alloc(0)) : Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
        await handle.write(data, 0, data.length, position);
        position += data.length;
        done += data.length;
        options.onProgress?.(done);
      };
      for await (const chunk of stream) {
        if (options.signal?.aborted) {
          stream.destroy();
          throw options.signal.reason;
        }
        pending.push(chunk as Buffer);
        pendingBytes += (chunk as Buffer).length;
        if (pendingBytes >= 1024 * 1024) await flush();
      }
      await flush();
      if (position !== offset + length) throw new Error(`range at ${offset}: received ${position - offset} bytes, expected ${length}`);
    }
  };
  try {
    await Promise.all(
      Array.from({ length: options.parallel }, () =>
        worker().catch((err: unknown) => {
          failure ??= err;
        }),
      ),
    );
    if (failure !== undefined) throw failure;
    await handle.close();
    await rename(temp, key);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw err;
  }
}
