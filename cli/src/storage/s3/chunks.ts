import type { Readable } from "node:stream";

/**
 * Part buffers handed back once a part is sent, for the next part to fill: a
 * fresh 16 MiB buffer is a fresh mapping whose every page faults in, and on a
 * VM that was most of an upload's CPU (2.6 s per GiB against 0.2 s reused).
 */
export interface PartBuffers {
  /** A buffer of at least `size` bytes, reused when one was released. */
  take(size: number): Buffer;
  /** Returns a part's buffer for reuse; the caller holds no reference to it any more. */
  release(part: Buffer): void;
}

export function createPartBuffers(): PartBuffers {
  const free: Buffer[] = [];
  const whole = new WeakMap<ArrayBufferLike, Buffer>();
  return {
    take(size) {
      const reused = free.pop();
      if (reused !== undefined && reused.length >= size) return reused;
      const fresh = Buffer.allocUnsafeSlow(size);
      whole.set(fresh.buffer, fresh);
      return fresh;
    },
    release(part) {
      const owner = whole.get(part.buffer);
      if (owner !== undefined && !free.includes(owner)) free.push(owner);
    },
  };
}

/**
 * A source that reads its next bytes straight into a caller's buffer (a local
 * file: one pread per part). Parts are then filled in place, without the
 * stream's 64 KiB chunks being allocated, page-faulted in and copied over:
 * that copy and its faults were a quarter of an upload's CPU.
 */
export interface DirectSource {
  /** Reads up to `length` bytes at `offset` of `buffer`; 0 at the end. */
  readInto(buffer: Buffer, offset: number, length: number): Promise<number>;
}

export const isDirectSource = (source: unknown): source is DirectSource => typeof (source as Partial<DirectSource> | undefined)?.readInto === "function";

/**
 * Splits a stream into buffers of exactly `size` bytes (the last one shorter).
 * Bytes wait as the stream's own chunks until a whole part is there, so an
 * object smaller than a part (or a part size too large to allocate, as an
 * unknown length's 5 GiB) never takes a part buffer.
 */
export async function* chunks(source: Readable, size: number, buffers: PartBuffers = createPartBuffers()): AsyncGenerator<Buffer> {
  if (isDirectSource(source)) {
    try {
      yield* directChunks(source, size, buffers);
    } finally {
      // Stopped early (a failed part, Ctrl-C) or at the end: the file is closed either way.
      source.destroy();
    }
    return;
  }
  let pending: Buffer[] = [];
  let length = 0;
  for await (const data of source) {
    let chunk = Buffer.isBuffer(data) ? data : Buffer.from(data as string);
    while (length + chunk.length >= size) {
      const take = size - length;
      const part = buffers.take(size);
      let at = 0;
      for (const piece of pending) at += piece.copy(part, at);
      chunk.copy(part, at, 0, take);
      chunk = chunk.subarray(take);
      pending = [];
      length = 0;
      yield part.length === size ? part : part.subarray(0, size);
    }
    if (chunk.length > 0) {
      pending.push(chunk);
      length += chunk.length;
    }
  }
  if (length > 0) yield Buffer.concat(pending, length);
}

async function* directChunks(source: DirectSource, size: number, buffers: PartBuffers): AsyncGenerator<Buffer> {
  for (;;) {
    const part = buffers.take(size);
    let filled = 0;
    while (filled < size) {
      const n = await source.readInto(part, filled, size - filled);
      if (n === 0) break;
      filled += n;
    }
    if (filled === 0) {
      buffers.release(part);
      return;
    }
    yield filled === part.length ? part : part.subarray(0, filled);
    if (filled < size) return;
  }
}
