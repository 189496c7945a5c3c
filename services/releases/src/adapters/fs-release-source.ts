import { constants } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "@mc/shared/errors";
import type { ReleaseSource } from "../domain/publish-release.js";

/**
 * A release directory on disk, as `releases publish --from DIR` reads it.
 * Every read fills the same buffer (grown to the largest file), so a publish
 * holds one binary's worth of memory however many platforms it has: a fresh
 * buffer per read lived until the garbage collector found it, and a publish of
 * six 64 MiB binaries peaked at 620 MB.
 */
export function createFsReleaseSource(dir: string): ReleaseSource {
  let buffer = Buffer.alloc(0);
  async function names(path: string): Promise<string[]> {
    try {
      return (await readdir(path)).filter((n) => !n.startsWith(".")).sort();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") throw new AppError("invalid_argument", `cannot read ${path}: no such directory`);
      throw err;
    }
  }
  async function read(path: string): Promise<Uint8Array> {
    const full = join(dir, path);
    // A FIFO would block the open and a device (a link to /dev/zero) would never end: files only.
    const found = await stat(full).catch((err: NodeJS.ErrnoException) => {
      throw new AppError("invalid_argument", `${path}: ${err.code === "ENOENT" ? "no such file (a link to nothing?)" : (err.code ?? "cannot be read")}`);
    });
    if (!found.isFile()) throw new AppError("invalid_argument", `${path} is not a regular file`);
    const file = await open(full, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const { size } = await file.stat();
      // One byte of room past its size: a file that grew since is noticed, never cut at the size it had.
      if (buffer.length <= size) buffer = Buffer.allocUnsafe(size + 1);
      let filled = 0;
      while (filled <= size) {
        const { bytesRead } = await file.read(buffer, filled, size + 1 - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled !== size) throw new AppError("aborted", `${path} changed while it was being read: run the publish again once it is complete`);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
    } finally {
      await file.close();
    }
  }
  return {
    list: () => names(dir),
    listDir: (sub) => names(join(dir, sub)),
    read,
  };
}
