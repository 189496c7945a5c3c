/** Runs `fn` over `items` with at most `concurrency` at once; stops taking new items once `signal` aborts. */
export async function runPool<T>(items: AsyncIterable<T> | Iterable<T>, concurrency: number, fn: (item: T) => Promise<void>, signal?: AbortSignal): Promise<void> {
  const running = new Set<Promise<void>>();
  let failure: { err: unknown } | undefined;
  for await (const item of items) {
    if (signal?.aborted || failure) break;
    const task = fn(item).catch((err: unknown) => {
      failure ??= { err };
    });
    const tracked = task.finally(() => running.delete(tracked));
    running.add(tracked);
    if (running.size >= concurrency) await Promise.race(running);
  }
  await Promise.all(running);
  if (failure) throw failure.err;
}

/** A counting semaphore: big objects take a slot so their part buffers stay bounded. */
export function createSemaphore(slots: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let free = slots;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (free === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    else free--;
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}
