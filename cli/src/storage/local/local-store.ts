import { createReadStream, createWriteStream, type Stats, type WriteStream } from "node:fs";
import { lstat, readdir, rename, rm, rmdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { isAppError, type AppError } from "@mc/shared/errors";
import { mcError } from "../../core/errors.js";
import { checkLocalName, makeParentOf, tempPathFor, writeRangesToFile } from "./local-ranges.js";
import { mcAttrsFromStat, mcAttrsHeader } from "./preserve-attrs.js";
import { readSmallFile } from "./small-file.js";
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

interface Item {
  readonly key: string;
  readonly isDir: boolean;
  readonly size: number;
  readonly mtime: Date;
}
/** A listed path: a folder's key ends in `/`. */
const itemOf = (path: string, s: Stats): Item => ({ key: path + (s.isDirectory() ? "/" : ""), isDir: s.isDirectory(), size: s.size, mtime: s.mtime });

// What a walk may pass over: a name removed since its folder was read, a link to nothing or to
// itself. Anything else (a folder it may not read or search, an I/O error) is reported: passing
// over it silently would leave files out of a copy, and a mirror --remove would delete their copies.
const absent = new Set(["ENOENT", "ENOTDIR", "ELOOP"]);
const isAbsent = (err: unknown): boolean => absent.has((err as NodeJS.ErrnoException).code ?? "");

function gone(path: string): (err: unknown) => undefined {
  return (err) => {
    if (isAbsent(err)) return undefined;
    throw unreadable(path, err);
  };
}

const denied = (path: string): AppError => mcError(`Insufficient permissions to access this path \`${path}\`.`, undefined, "permission_denied");

function unreadable(path: string, err: unknown): AppError {
  const code = (err as NodeJS.ErrnoException).code;
  return code === "EACCES" || code === "EPERM" ? denied(path) : mcError(`Unable to read \`${path}\`.`, err);
}

/** The folder holding the path may be read but not searched (mode 0644): every name in it fails alike. */
const unsearchable = Symbol("unsearchable");

/**
 * What a listing shows of a path, as the original client's: regular files
 * and folders, a link as what it names. A recursive listing never enters a
 * linked folder (a link to an ancestor would loop), and FIFOs, sockets,
 * devices and links to nothing are left out: opening a FIFO blocks until a
 * writer comes, and a device may never end.
 */
async function listable(path: string, recursive: boolean): Promise<Stats | undefined | typeof unsearchable> {
  const own = await lstat(path).catch((err: unknown) => ((err as NodeJS.ErrnoException).code === "EACCES" ? unsearchable : gone(path)(err)));
  if (own === unsearchable || !own) return own;
  const s = own.isSymbolicLink() ? await stat(path).catch(gone(path)) : own;
  if (!s || (!s.isFile() && !s.isDirectory())) return undefined;
  return own.isSymbolicLink() && recursive && s.isDirectory() ? undefined : s;
}

export interface LocalStoreOptions {
  /**
   * Told of each part of a listing that cannot be read (a folder mc may not
   * read, a name that is not UTF-8), with its path as a listing keys it (a
   * folder ends in `/`); the listing goes on with the rest. Without it, such
   * a part stops the listing.
   */
  readonly onUnreadable?: (err: AppError, path: string) => void;
}

/** Keys are absolute POSIX paths; a directory lists as `path/`. */
export function createLocalStore(storeOptions: LocalStoreOptions = {}): Store {
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
  // A part that cannot be read is reported and passed over (the rest is still listed), or, with
  // no one to report to, stops the listing.
  const skip = (err: AppError, path: string): void => {
    if (!storeOptions.onUnreadable) throw err;
    storeOptions.onUnreadable(err, path);
  };
  const listed = (path: string, recursive: boolean): Promise<Stats | undefined | typeof unsearchable> =>
    listable(path, recursive).catch((err: unknown) => {
      if (!isAppError(err)) throw err;
      skip(err, path);
      return undefined;
    });
  async function* walk(dir: string, recursive: boolean, filter: (name: string) => boolean, exact?: string): AsyncGenerator<Entry> {
    let names: string[];
    try {
      names = (await readdir(dir)).filter(filter).sort();
    } catch (err) {
      // A folder that may be searched but not read (mode 711) still lets a named path through.
      const s = exact !== undefined && (err as NodeJS.ErrnoException).code === "EACCES" ? await listed(exact, recursive) : undefined;
      if (exact !== undefined && s && s !== unsearchable) yield* entriesOf(itemOf(exact, s), recursive);
      else if (!isAbsent(err)) skip(unreadable(dir, err), dir);
      return;
    }
    const base = dir.endsWith("/") ? dir : `${dir}/`;
    const items: Item[] = [];
    for (const name of names) {
      const s = await listed(base + name, recursive);
      if (s === unsearchable) return skip(denied(dir), dir);
      // Node decodes a name that is not UTF-8 with U+FFFD, and no file has the decoded name:
      // passing over it silently would lose the file without a word.
      if (!s && name.includes("\uFFFD") && (await lstat(base + name).catch((err: unknown) => (isAbsent(err) ? undefined : null))) === undefined) {
        skip(mcError(`\`${base + name}\` has a name that is not valid UTF-8, which mc cannot read; rename it.`, undefined, "failed_precondition"), base + name);
      }
      if (s) items.push(itemOf(base + name, s));
    }
    items.sort((a, b) => compareKeys(a.key, b.key));
    for (const item of items) yield* entriesOf(item, recursive);
  }
  function entriesOf({ key, isDir, size, mtime }: Item, recursive: boolean): AsyncIterable<Entry> | Entry[] {
    if (!isDir) return [{ key, size, lastModified: mtime, etag: "", isDir: false }];
    return recursive ? walk(key, true, () => true) : [dirEntry(key, mtime)];
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
      return walk(dirname(prefix), options.recursive, (n) => n.startsWith(name), prefix);
    },
    async read(key, options: ReadOptions = {}) {
      const whole = options.offset === undefined && options.length === undefined ? readSmallFile(key) : undefined;
      if (whole) return Readable.from([whole], { objectMode: false });
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
      await makeParentOf(key);
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
