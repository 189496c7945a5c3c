/**
 * Names kept in sorted order (UTF-16 code units, as `Array.prototype.sort`)
 * in chunks of at most `chunkMax`: an insert or delete costs a binary search
 * and a splice inside one chunk, and a page of names from any point costs
 * its own length, however many names there are. A plain sorted array would
 * move half a million pointers per insert at a million names; sorting the
 * map's keys per list request (what `key list` did) costs the whole keyspace
 * per page.
 */
export interface SortedNames {
  readonly size: number;
  add(name: string): void;
  delete(name: string): void;
  /** Up to `max` names `>= from` (or `> from` when `exclusive`), in order. */
  slice(from: string, max: number, exclusive?: boolean): string[];
}

const chunkMax = 512;

/** Index of the first element of `a` that is >= name (or > name when `after`). */
function lowerBound(a: readonly string[], name: string, after = false): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = a[mid] as string;
    if (v < name || (after && v === name)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function createSortedNames(initial: Iterable<string> = []): SortedNames {
  let chunks: string[][] = [];
  let size = 0;

  /** The chunk a name belongs in: the last whose first name is <= it (the first chunk otherwise). */
  function chunkOf(name: string): number {
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((chunks[mid]?.[0] as string) <= name) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  const names: SortedNames = {
    get size() {
      return size;
    },
    add(name) {
      if (chunks.length === 0) {
        chunks.push([name]);
        size = 1;
        return;
      }
      const c = chunkOf(name);
      const chunk = chunks[c] as string[];
      const at = lowerBound(chunk, name);
      if (chunk[at] === name) return;
      chunk.splice(at, 0, name);
      size += 1;
      if (chunk.length > chunkMax) chunks.splice(c + 1, 0, chunk.splice(chunkMax >>> 1));
    },
    delete(name) {
      if (chunks.length === 0) return;
      const c = chunkOf(name);
      const chunk = chunks[c] as string[];
      const at = lowerBound(chunk, name);
      if (chunk[at] !== name) return;
      chunk.splice(at, 1);
      size -= 1;
      if (chunk.length === 0) chunks.splice(c, 1);
    },
    slice(from, max, exclusive = false) {
      const out: string[] = [];
      if (chunks.length === 0 || max <= 0) return out;
      let c = chunkOf(from);
      let at = lowerBound(chunks[c] as string[], from, exclusive);
      for (; c < chunks.length && out.length < max; c++, at = 0) {
        const chunk = chunks[c] as string[];
        for (; at < chunk.length && out.length < max; at++) out.push(chunk[at] as string);
      }
      return out;
    },
  };
  // Sorted input (a snapshot's keys in map order are usually not) is added in one pass.
  const sorted = [...initial].sort();
  for (let i = 0; i < sorted.length; i += chunkMax >>> 1) chunks.push(sorted.slice(i, i + (chunkMax >>> 1)));
  size = sorted.length;
  chunks = chunks.filter((c) => c.length > 0);
  return names;
}

/**
 * A Map whose keys are also kept sorted (`names`), so listing a page of
 * them never sorts the whole map. Used for an enclave's keys.
 */
export class NamedMap<V> extends Map<string, V> {
  readonly names: SortedNames;

  constructor(entries?: Iterable<readonly [string, V]>) {
    // Nothing through super(): its sets would run before `names` exists.
    super();
    if (entries) for (const [name, value] of entries) super.set(name, value);
    // Many entries at once (a snapshot's keys): one sort, linear when they come
    // in order as they usually do, instead of a search and splice per name.
    this.names = createSortedNames(entries ? super.keys() : []);
  }

  override set(name: string, value: V): this {
    if (!super.has(name)) this.names.add(name);
    return super.set(name, value);
  }

  override delete(name: string): boolean {
    const had = super.delete(name);
    if (had) this.names.delete(name);
    return had;
  }

  override clear(): void {
    for (const name of [...super.keys()]) this.names.delete(name);
    super.clear();
  }
}

// The index is derived from the keys: two maps with the same entries are the
// same state. Deep-equality checks (dequal, as the tests and uvu use) compare
// by `constructor`; as a Map they compare the entries, not the index layout.
Object.defineProperty(NamedMap.prototype, "constructor", { value: Map, writable: true, configurable: true });
