import { open, type FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";
import type { DirectSource } from "../storage/s3/chunks.js";

/** A local file read from its start, as a stream or straight into the caller's buffers. */
export interface FileSource extends Readable, DirectSource {
  /** Bytes read so far (to check against the listed size). */
  readonly bytesRead: number;
}

/**
 * Reads `path` for an upload: an S3 target fills its part buffers with one
 * pread each (`readInto`); anything else consumes it as a stream. The file is
 * opened on the first read and closed at its end or when destroyed.
 */
export function createFileSource(path: string): FileSource {
  let handle: Promise<FileHandle> | undefined;
  let position = 0;
  let closed = false;
  const close = (): Promise<void> => {
    closed = true;
    const h = handle;
    handle = undefined;
    return h ? h.then((fh) => fh.close()).catch(() => undefined) : Promise.resolve();
  };
  const readInto = async (buffer: Buffer, offset: number, length: number): Promise<number> => {
    if (closed) throw Object.assign(new Error(`${path} is closed`), { code: "ERR_STREAM_DESTROYED" });
    handle ??= open(path, "r");
    const { bytesRead } = await (await handle).read(buffer, offset, length, position);
    position += bytesRead;
    if (bytesRead === 0) await close();
    return bytesRead;
  };
  const stream = new Readable({
    highWaterMark: 1024 * 1024,
    read(size) {
      const buffer = Buffer.allocUnsafe(size);
      readInto(buffer, 0, size).then(
        (n) => this.push(n === 0 ? null : buffer.subarray(0, n)),
        (err: Error) => this.destroy(err),
      );
    },
    destroy(err, callback) {
      close().then(() => callback(err), callback);
    },
  });
  // defineProperties keeps bytesRead a live getter (Object.assign would copy its value once).
  return Object.defineProperties(stream, { readInto: { value: readInto }, bytesRead: { get: () => position } }) as FileSource;
}
