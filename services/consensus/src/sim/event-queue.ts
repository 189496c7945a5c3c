/** A binary min-heap of timed events; ties keep insertion order, so runs replay exactly. */
export interface EventQueue<T> {
  push(time: number, value: T): void;
  pop(): { time: number; value: T } | undefined;
  readonly size: number;
}

interface Item<T> {
  readonly time: number;
  readonly seq: number;
  readonly value: T;
}

export function createEventQueue<T>(): EventQueue<T> {
  const heap: Item<T>[] = [];
  let seq = 0;
  const less = (a: Item<T>, b: Item<T>): boolean => a.time < b.time || (a.time === b.time && a.seq < b.seq);
  const swap = (i: number, j: number): void => {
    const t = heap[i] as Item<T>;
    heap[i] = heap[j] as Item<T>;
    heap[j] = t;
  };
  return {
    push(time, value) {
      heap.push({ time, seq: seq++, value });
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!less(heap[i] as Item<T>, heap[parent] as Item<T>)) break;
        swap(i, parent);
        i = parent;
      }
    },
    pop() {
      const top = heap[0];
      if (!top) return undefined;
      const last = heap.pop() as Item<T>;
      if (heap.length > 0) {
        heap[0] = last;
        let i = 0;
        for (;;) {
          const l = 2 * i + 1;
          const r = l + 1;
          let m = i;
          if (l < heap.length && less(heap[l] as Item<T>, heap[m] as Item<T>)) m = l;
          if (r < heap.length && less(heap[r] as Item<T>, heap[m] as Item<T>)) m = r;
          if (m === i) break;
          swap(i, m);
          i = m;
        }
      }
      return { time: top.time, value: top.value };
    },
    get size() {
      return heap.length;
    },
  };
}
