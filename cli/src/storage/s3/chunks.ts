import type { Readable } from "node:stream";

/** Splits a stream into buffers of exactly `size` bytes (the last one shorter); holds one part at a time. */
export async function* chunks(source: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const data of source) {
    let chunk = Buffer.isBuffer(data) ? data : Buffer.from(data as string);
    while (length + chunk.length >= size) {
      const take = size - length;
      pending.push(chunk.subarray(0, take));
      yield Buffer.concat(pending, size);
      chunk = chunk.subarray(take);
      pending = [];
      length = 0;
    }
    if (chunk.length > 0) {
      pending.push(chunk);
      length += chunk.length;
    }
  }
  if (length > 0) yield Buffer.concat(pending, length);
}
