// A Map bounded by count that forgets its oldest entries first, each
// eviction O(1). The obvious `map.delete(map.keys().next().value)` is not:
// V8 leaves a deleted entry as a hole until the table is rehashed, and a new
// iterator walks every hole from the front, so a full map evicting on each
// insert steps over up to a table's worth of holes per insert (the KMS
// session table: a write cost ten times more once 100,000 were remembered).
// Pure: no I/O, usable from domain code.

export interface FifoMap<K, V> {
  readonly size: number;
  get(key: K): V | undefined;
  has(key: K): boolean;
  /** A new key goes last; an existing key keeps its place (as a Map's). Then the oldest beyond the limit go. */
  set(key: K, value: V): void;
  delete(key: K): boolean;
  clear(): void;
  /** Oldest first. */
  keys(): IterableIterator<K>;
}

export function createFifoMap<K, V>(max: number): FifoMap<K, V> {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`a FifoMap holds at least one entry, not ${max}`);
  /** Each entry's value and the sequence number of its place in `order`. */
  const map = new Map<K, { value: V; seq: number }>();
  // Places in insertion order, from `head`; a place whose key was deleted (or re-added later) is stale and skipped.
  let keys: K[] = [];
  let seqs: number[] = [];
  let head = 0;
  let next = 0;

  function compact(): void {
    const k: K[] = [];
    const s: number[] = [];
    for (let i = head; i < keys.length; i++) {
      const key = keys[i] as K;
      if (map.get(key)?.seq === seqs[i]) {
        k.push(key);
        s.push(seqs[i] as number);
      }
    }
    keys = k;
    seqs = s;
    head = 0;
  }

  return {
    get size() {
      return map.size;
    },
    get: (key) => map.get(key)?.value,
    has: (key) => map.has(key),
    set(key, value) {
      const held = map.get(key);
      if (held) {
        held.value = value;
        return;
      }
      map.set(key, { value, seq: next });
      keys.push(key);
      seqs.push(next++);
      while (map.size > max && head < keys.length) {
        const oldest = keys[head] as K;
        if (map.get(oldest)?.seq === seqs[head]) map.delete(oldest);
        head++;
      }
      // Evicted and stale places are dropped once they outnumber the live ones: amortised O(1).
      if (keys.length - head > 2 * map.size + 16 || head > max) compact();
    },
    delete: (key) => map.delete(key),
    clear() {
      map.clear();
      keys = [];
      seqs = [];
      head = 0;
    },
    keys: () => map.keys(),
  };
}
