import { closeSync, constants, fstatSync, openSync, readFileSync, statSync } from "node:fs";

/** Files up to this size are read whole, on the calling thread. */
export const smallFileBytes = 256 * 1024;

/**
 * A small regular file, read whole and synchronously; undefined for anything
 * else (missing, bigger, a directory, a FIFO, a device), which the caller
 * reads as before, as a stream. Each asynchronous file operation is a
 * hand-off to libuv's thread pool, and `cp -r` of 2,000 files of 4 KiB made
 * five per file (stat, open, two reads, close); on two cores each hand-off
 * woke a thread that took the CPU from the one sending requests. Here: stat,
 * open, fstat, read, close, no hand-off. A FIFO is never opened (that would
 * release a writer waiting for a reader); O_NONBLOCK so one put in the file's
 * place after the stat is seen by fstat instead of blocking the process.
 */
export function readSmallFile(path: string): Buffer | undefined {
  const s = statSync(path, { throwIfNoEntry: false });
  if (!s?.isFile() || s.size > smallFileBytes) return undefined;
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    // Read to the end, as a stream would: a file that grew since it was listed is caught by the size check of the copy.
    return fstatSync(fd).isFile() ? readFileSync(fd) : undefined;
  } finally {
    closeSync(fd);
  }
}
