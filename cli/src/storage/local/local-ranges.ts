import { writeSync } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { mcError } from "../../core/errors.js";
import type { RangeWriteOptions } from "../types.js";

let tempCount = 0;

/**
 * Bytes gathered per write of a ranged download. With 1 MiB the kernel's
 * copy into the page cache read the chunks back from memory (four ranges
 * in flight gather 4 MiB, more than the CPU's cache holds): a 1 GiB
 * download took 1.65 s of system time against 0.9 s with 256 KiB, and
 * 2.5 s of wall time against 2.0 s (rclone: 0.8 s and 1.65 s).
 */
const gatherBytes = 256 * 1024;

/**
 * A temp file beside the target: nothing appears under the final name until
 * rename. Its name keeps at most 100 bytes of the target's, so a target name
 * near the 255-byte limit still has a temp file.
 */
export function tempPathFor(key: string): string {
  let base = key.slice(key.lastIndexOf("/") + 1);
  while (Buffer.byteLength(base) > 100) base = [...base].slice(0, -1).join("");
  return join(dirname(key), `.${base}.mc-part-${process.pid}-${Date.now()}-${tempCount++}`);
}

/**
 * Local targets are absolute paths built from a normalized folder and an
 * object's name: an empty, `.` or `..` segment can only come from the object
 * name (`a//b`, `x/../y`), and would write elsewhere, outside the target
 * folder even. Such objects are refused, never renamed.
 */
export function checkLocalName(key: string): void {
  if (!/\/\/|\/\.\.?(\/|$)|\/$/.test(key)) return;
  throw mcError(`\`${key}\` cannot be a local file name: it has an empty, \`.\` or \`..\` path segment.`, undefined, "invalid_argument");
}

/** Makes the folders above a file; a file standing where one of them must be is named in one line. */
export async function makeParentOf(key: string): Promise<void> {
  try {
    await mkdir(dirname(key), { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const blocker = code === "EEXIST" || code === "ENOTDIR" ? await nearestExisting(dirname(key)) : undefined;
    if (blocker && !blocker.isDir) throw mcError(`\`${blocker.path}\` is a file, so it cannot hold \`${key}\`.`, undefined, "failed_precondition");
    throw err;
  }
}

async function nearestExisting(dir: string): Promise<{ path: string; isDir: boolean } | undefined> {
  for (let path = dir; ; path = dirname(path)) {
    const s = await stat(path).catch(() => undefined);
    if (s) return { path, isDir: s.isDirectory() };
    if (path === dirname(path)) return undefined;
  }
}

/**
 * Fetches `size` bytes as ranges, `parallel` at a time, each written at its
 * offset; memory stays at one socket buffer per range in flight.
 */
export async function writeRangesToFile(key: string, size: number, fetch: (offset: number, length: number) => Promise<Readable>, options: RangeWriteOptions): Promise<void> {
  checkLocalName(key);
  await makeParentOf(key);
  const temp = tempPathFor(key);
  const handle = await open(temp, "w");
  let done = 0;
  let next = 0;
  let failure: unknown;
  // Bytes from a range connection are written here and now, on this thread, before its buffer is refilled.
  const take = (bytes: Buffer, position: number): void => {
    for (let at = 0; at < bytes.length; ) {
      const n = writeSync(handle.fd, bytes, at, bytes.length - at, position + at);
      if (n === 0) throw new Error(`short write at ${position + at}`);
      at += n;
    }
    done += bytes.length;
    options.onProgress?.(done);
  };
  const worker = async (): Promise<void> => {
    const line = options.connect?.(options.signal);
    try {
      while (failure === undefined && next < size) {
        if (options.signal?.aborted) throw options.signal.reason;
        const offset = next;
        const length = Math.min(options.rangeSize, size - offset);
        next += length;
        if (!(await line?.read(offset, length, take))) await fetchRange(offset, length);
      }
    } finally {
      line?.close();
    }
  };
  const fetchRange = async (offset: number, length: number): Promise<void> => {
    const stream = await fetch(offset, length);
    let position = offset;
    // Socket chunks are ~64 KiB: gather them into writes of gatherBytes (fewer thread-pool
    // round trips), as one pwritev of the chunks themselves: joining them first was a copy
    // into a fresh buffer whose pages all faulted in, a third of a download's CPU.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async (): Promise<void> => {
      if (pendingBytes === 0) return;
      const data = pending;
      const bytes = pendingBytes;
      pending = [];
      pendingBytes = 0;
      // libuv loops over short writes and IOV_MAX; fewer bytes means it stopped (a full disk): never leave a hole.
      const { bytesWritten } = await handle.writev(data, position);
      if (bytesWritten !== bytes) throw new Error(`short write at ${position}: ${bytesWritten} of ${bytes} bytes`);
      position += bytes;
      done += bytes;
      options.onProgress?.(done);
    };
    for await (const chunk of stream) {
      if (options.signal?.aborted) {
        stream.destroy();
        throw options.signal.reason;
      }
      pending.push(chunk as Buffer);
      pendingBytes += (chunk as Buffer).length;
      if (pendingBytes >= gatherBytes) await flush();
    }
    await flush();
    if (position !== offset + length) throw new Error(`range at ${offset}: received ${position - offset} bytes, expected ${length}`);
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
