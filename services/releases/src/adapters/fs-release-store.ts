import { mkdir, open, readdir, readFile, realpath, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { AppError } from "@mc/shared/errors";
import { tempPrefix, writeFileAtomic } from "@mc/shared/node";
import type { ByteRange, ReleaseStore, StoredFile } from "../domain/release-store.js";

const readChunk = 2 * 1024 * 1024;

/**
 * The bytes [start, end) in 2 MiB reads into two alternating buffers, so a
 * 1 GiB download allocates 4 MiB instead of 1 GiB of garbage (garbage
 * collection pauses were the download's main cost). A yielded chunk stays
 * valid until the consumer asks for the chunk after the next one: a consumer
 * that reads one ahead writes chunk N, waits until the socket took it, and
 * only then takes N+1 and asks for N+2. Copy a chunk to keep it longer.
 */
async function* readChunks(file: string, start: number, end: number): AsyncGenerator<Uint8Array> {
  const handle = await open(file, "r");
  const buffers = [Buffer.allocUnsafe(Math.min(readChunk, end - start)), Buffer.allocUnsafe(Math.min(readChunk, end - start))];
  try {
    let position = start;
    for (let i = 0; position < end; i++) {
      const buffer = buffers[i % 2] ?? Buffer.allocUnsafe(readChunk);
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.byteLength, end - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR";
}

/**
 * The release store on a directory tree laid out like the public URL space,
 * so the tree is also a valid static site. Writes are temp file + fsync +
 * rename + directory fsync; reads refuse anything that resolves outside the
 * root (a symlink planted in the tree included).
 */
export async function createFsReleaseStore(root: string): Promise<ReleaseStore> {
  await mkdir(root, { recursive: true });
  const realRoot = await realpath(root);

  function resolvePath(path: string): string {
    const parts = path.split("/");
    if (path === "" || parts.some((p) => p === "" || p === "." || p === ".." || p.includes("\\") || p.includes("\0"))) {
      throw new AppError("invalid_argument", "invalid store path");
    }
    return join(realRoot, ...parts);
  }

  /** The real path of an existing file, or undefined when it is missing or escapes the root. */
  async function inside(path: string): Promise<string | undefined> {
    try {
      const real = await realpath(resolvePath(path));
      const rel = relative(realRoot, real);
      return rel === "" || rel.startsWith(`..${sep}`) || rel === ".." ? undefined : real;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async function fileStat(path: string): Promise<(StoredFile & { real: string }) | undefined> {
    const real = await inside(path);
    if (!real) return undefined;
    const s = await stat(real);
    return s.isFile() ? { size: s.size, modified: s.mtime, real } : undefined;
  }

  return {
    async read(path) {
      const s = await fileStat(path);
      return s ? new Uint8Array(await readFile(s.real)) : undefined;
    },
    async stat(path) {
      const s = await fileStat(path);
      return s ? { size: s.size, modified: s.modified } : undefined;
    },
    async list(dir) {
      try {
        const real = dir === "" ? realRoot : await inside(dir);
        if (!real) return [];
        return (await readdir(real)).filter((n) => !n.startsWith(tempPrefix)).sort();
      } catch (err) {
        if (isMissing(err)) return [];
        throw err;
      }
    },
    async write(path, data) {
      const target = resolvePath(path);
      await mkdir(dirname(target), { recursive: true });
      await writeFileAtomic(target, data);
    },
    async openRead(path, range?: ByteRange) {
      const s = await fileStat(path);
      if (!s) return undefined;
      return readChunks(s.real, range?.start ?? 0, range ? range.end + 1 : s.size);
    },
  };
}
