import { createReadStream, createWriteStream, type Stats, type WriteStream } from "node:fs";
import { lstat, mkdir, readdir, rename, rm, rmdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { mcError } from "../../core/errors.js";
import { checkLocalName, tempPathFor, writeRangesToFile } from "./local-ranges.js";
import { mcAttrsFromStat, mcAttrsHeader } from "./preserve-attrs.js";
import { compareKeys } from "../../util/key-order.js";
import { contentTypeOf } from "../../util/mime.js";
import type { Entry, ListOptions, ObjectInfo, ReadOptions, Store, WriteOptions } from "../types.js";

/** Resolves once the stream has released its file (destroying it if it had not). */
function closed(file: WriteStream): Promise<void> {
  if (file.closed) return Promise.resolve();
  return new Promise((resolve) => {
    file.once("close", () => resolve());
    file.destroy();
  });
}

const dirEntry = (key: string, mtime: Date): Entry => ({ key, size: 0, lastModified: mtime, etag: "", isDir: true });

/**
 * What a listing shows of a path, as the original client's: regular files
 * and folders, a link as what it names. A recursive listing never enters a
 * linked folder (a link to an ancestor would loop), and FIFOs, sockets,
 * devices and links to nothing are left out: opening a FIFO blocks until a
 * writer comes, and a device may never end.
 */
async function listable(path: string, recursive: boolean): Promise<Stats | undefined> {
  const own = await lstat(path).catch(() => undefined);
  if (!own) return undefined;
  const s = own.isSymbolicLink() ? await stat(path).catch(() => undefined) : own;
  if (!s || (!s.isFile() && !s.isDirectory())) return undefined;
  return own.isSymbolicLink() && recursive && s.isDirectory() ? undefined : s;
}

/** Keys are absolute POSIX paths; a directory lists as `path/`. */
export function createLocalStore(): Store {
  // As upstream's stat of a file: its guessed Content-Type and its attributes as `-a` would send them.
  const statKey = async (key: string): Promise<ObjectInfo | undefined> => {
    try {
      const s = await stat(key, { bigint: true });
      if (s.isDirectory()) return undefined;
      return { key, size: Number(s.size), lastModified: s.mtime, etag: "", isDir: false, contentType: contentTypeOf(key), metadata: { [mcAttrsHeader]: mcAttrsFromStat(s) } };
    } catch {
      return undefined;
    }
  };
  async function* walk(dir: string, recursive: boolean, filter: (name: string) => boolean): AsyncGenerator<Entry> {
    let names: string[];
    try {
      names = (await readdir(dir)).filter(filter).sort();
    } catch {
      return;
    }
    const base = dir.endsWith("/") ? dir : `${dir}/`;
    const items: { key: string; isDir: boolean; size: number; mtime: Date }[] = [];
    for (const name of names) {
      const s = await listable(base + name, recursive);
      // Node decodes a name that is not UTF-8 with U+FFFD, and no file has the decoded name:
      // skipping it would lose the file without a word.
      if (!s && name.includes("\uFFFD") && (await lstat(base + name).catch(() => undefined)) === undefined) {
        throw mcError(`\`${base + name}\` has a name that is not valid UTF-8, which mc cannot read; rename it.`, undefined, "failed_precondition");
      }
      if (s) items.push({ key: base + name + (s.isDirectory() ? "/" : ""), isDir: s.isDirectory(), size: s.size, mtime: s.mtime });
    }
    items.sort((a, b) => compareKeys(a.key, b.key));
    for (const item of items) {
      if (!item.isDir) yield { key: item.key, size: item.size, lastModified: item.mtime, etag: "", isDir: false };
      else if (recursive) yield* walk(item.key, true, () => true);
      else yield dirEntry(item.key, item.mtime);
    }
  }
  return {
    kind: "local",
    url: (key) => key,
    stat: statKey,
    async isDir(key) {
      return (await stat(key).catch(() => undefined))?.isDirectory() === true;
    },
    list(prefix, options: ListOptions) {
      if (prefix.endsWith("/")) return walk(prefix, options.recursive, () => true);
      const name = prefix.slice(prefix.lastIndexOf("/") + 1);
      return walk(dirname(prefix), options.recursive, (n) => n.startsWith(name));
    },
    async read(key, options: ReadOptions = {}) {
      const s = await stat(key);
      if (s.isDirectory()) throw Object.assign(new Error(`${key} is a directory`), { code: "EISDIR" });
      // A copy of a FIFO would block (and every later file operation) until a writer came, and a
      // device might never end; cat and head read them as the original client does.
      if (!s.isFile() && options.anyFile !== true) throw mcError(`\`${key}\` is not a regular file; to upload a stream, use \`mc pipe\`.`, undefined, "invalid_argument");
      const start = options.offset ?? 0;
      const end = options.length === undefined ? undefined : start + options.length - 1;
      // No start for a whole read: positioned reads fail on a FIFO (ESPIPE).
      if (start === 0 && end === undefined) return createReadStream(key);
      return createReadStream(key, end === undefined ? { start } : { start, end });
    },
    async write(key, source: Readable, _size, options: WriteOptions = {}) {
      checkLocalName(key);
      await mkdir(dirname(key), { recursive: true });
      // A temp file beside the target, renamed on success: an interrupted copy leaves nothing under the final name.
      const temp = tempPathFor(key);
      let written = 0;
      const count = new Transform({
        transform(chunk: Buffer, _enc, done) {
          written += chunk.length;
          options.onProgress?.(written);
          done(null, chunk);
        },
      });
      const file = createWriteStream(temp);
      try {
        await pipeline(source, count, file, options.signal ? { signal: options.signal } : {});
        options.verify?.();
        await rename(temp, key);
      } catch (err) {
        // pipeline() rejects as soon as the source fails, before the file's open or close has
        // run: removing the temp then can come before the open creates it, leaving it behind.
        await closed(file);
        await rm(temp, { force: true });
        throw err;
      }
    },
    writeRanges: writeRangesToFile,
    async remove(key) {
      const s = await lstat(key);
      if (s.isDirectory()) await rmdir(key);
      else await rm(key);
      return { deleteMarker: false, versionId: "" };
    },
  };
}
