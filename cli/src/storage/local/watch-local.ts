import { watch } from "node:fs";
import { stat } from "node:fs/promises";
import { join, sep } from "node:path";
import { mcError } from "../../core/errors.js";
import { noSource, type WatchEvent, type WatchOptions } from "../watch-event.js";

/** How long a path stays quiet before its events (rename, change, change…) become one. */
const settleMs = 100;

/**
 * Watches a directory tree through the file system's notifications (fs.watch,
 * recursive) until the signal aborts. One write shows up as several raw
 * events, so each path reports once it has settled: a file that exists is a
 * put, a path that is gone a delete.
 */
export async function watchLocal(root: string, options: WatchOptions, onEvent: (e: WatchEvent) => void): Promise<void> {
  const info = await stat(root).catch((err: unknown) => {
    throw mcError(`Unable to watch \`${root}\`.`, err, "not_found");
  });
  if (!info.isDirectory()) throw mcError(`Unable to watch \`${root}\`: not a directory.`, undefined, "invalid_argument");
  const pending = new Map<string, NodeJS.Timeout>();
  const report = async (rel: string): Promise<void> => {
    pending.delete(rel);
    const path = join(root, rel);
    const now = new Date().toISOString();
    const s = await stat(path).catch(() => undefined);
    if (s?.isFile() && options.events.has("put")) onEvent({ time: now, size: s.size, path, type: "s3:ObjectCreated:Put", source: noSource });
    if (s === undefined && options.events.has("delete")) onEvent({ time: now, size: 0, path, type: "s3:ObjectRemoved:Delete", source: noSource });
  };
  await new Promise<void>((resolve, reject) => {
    let watcher: ReturnType<typeof watch>;
    try {
      watcher = watch(root, { recursive: true, signal: options.signal }, (_type, filename) => {
        if (filename === null) return;
        const rel = filename.toString().split(sep).join("/");
        if (!rel.startsWith(options.prefix) || !rel.endsWith(options.suffix)) return;
        clearTimeout(pending.get(rel));
        pending.set(rel, setTimeout(() => void report(rel), settleMs));
      });
    } catch (err) {
      reject(mcError(`Unable to watch \`${root}\`.`, err));
      return;
    }
    watcher.on("error", (err: Error) => {
      if (err.name === "AbortError") resolve();
      else reject(mcError(`Unable to watch \`${root}\`.`, err));
    });
    watcher.on("close", () => resolve());
    options.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  for (const t of pending.values()) clearTimeout(t);
}
