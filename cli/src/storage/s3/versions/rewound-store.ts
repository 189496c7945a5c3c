import type { Entry, ReadOptions, Store } from "../../types.js";

const missing = (key: string): Error => Object.assign(new Error("Object does not exist"), { code: "NoSuchKey", key });

/**
 * A bucket as it was at `at` (`--rewind`), built from its versions: each key
 * shows the newest version written at or before that moment, and a key whose
 * newest version then was a delete marker (or that did not exist yet) is
 * absent. Listing with `versions` gives every version up to the moment.
 * Reads follow the same rule; writes and deletes go to the bucket as it is
 * now, so `cp --rewind` can copy the past into the present.
 */
export function createRewoundStore(inner: Store, at: Date): Store {
  const limit = at.getTime();
  // Version id at the moment per key, or null when absent then; listings fill it too.
  const chosen = new Map<string, string | null>();
  const pick = (e: Entry): string | null => (e.isDeleteMarker ? null : (e.versionId ?? "null"));

  async function versionAt(key: string): Promise<string | null> {
    const known = chosen.get(key);
    if (known !== undefined) return known;
    let found: string | null = null;
    // Versions come sorted by key, newest first; the exact key sorts before any longer one.
    for await (const e of inner.list(key, { recursive: true, versions: true })) {
      if (e.key !== key) break;
      if (e.lastModified.getTime() > limit) continue;
      found = pick(e);
      break;
    }
    chosen.set(key, found);
    return found;
  }

  const store: Store = {
    kind: inner.kind,
    url: (key) => inner.url(key),
    async stat(key, versionId) {
      if (versionId !== undefined && versionId !== "") return inner.stat(key, versionId);
      if (key === "" || key.endsWith("/")) return undefined;
      const vid = await versionAt(key);
      return vid === null ? undefined : inner.stat(key, vid);
    },
    isDir: (key) => inner.isDir(key),
    async *list(prefix, options) {
      let key: string | undefined;
      let done = false;
      for await (const e of inner.list(prefix, { ...options, versions: true })) {
        if (e.isDir) {
          yield e;
          continue;
        }
        if (e.key !== key) {
          key = e.key;
          done = false;
        }
        if (done || e.lastModified.getTime() > limit) continue;
        if (options.versions) {
          yield e;
          continue;
        }
        done = true;
        chosen.set(e.key, pick(e));
        if (!e.isDeleteMarker) yield e;
      }
    },
    async read(key, options: ReadOptions = {}) {
      if (options.versionId) return inner.read(key, options);
      const vid = await versionAt(key);
      if (vid === null) throw missing(key);
      return inner.read(key, { ...options, versionId: vid });
    },
    write: (key, source, size, options) => inner.write(key, source, size, options),
    remove: (key, versionId) => inner.remove(key, versionId),
  };
  // As a destination it is the bucket itself. A rewound source is no origin
  // the server can copy from, so copies out of the past always stream.
  if (inner.copyFrom) store.copyFrom = inner.copyFrom.bind(inner);
  if (inner.writeRanges) store.writeRanges = inner.writeRanges.bind(inner);
  return store;
}
