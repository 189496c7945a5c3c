import { open, readdir } from "node:fs/promises";
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
    const file = await open(join(dir, path), "r");
    try {
      const { size } = await file.stat();
      // One byte of room past its size: the read that finds the end needs no bigger buffer.
      if (buffer.length <= size) buffer = Buffer.allocUnsafe(size + 1);
      let filled = 0;
      for (;;) {
        // A file that grew meanwhile is read whole, never cut at the size it had.
        if (filled === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
        const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
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
