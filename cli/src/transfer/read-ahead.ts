/**
 * Pulls `source` ahead of its consumer, at most `limit` items, so that two
 * listings compared side by side fetch their pages at the same time (as two
 * whole listings read at once did) while memory stays at a page or so each.
 * Stopping early stops the source too; its error reaches the consumer in turn.
 */
export async function* readAhead<T>(source: AsyncIterable<T>, limit: number): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  const queue: T[] = [];
  let finished = false;
  let stopped = false;
  let failure: { err: unknown } | undefined;
  // Only one side ever waits: the producer on a full queue, the consumer on an empty one.
  let wake: (() => void) | undefined;
  const poke = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const sleep = (): Promise<void> => new Promise((resolve) => (wake = resolve));
  const pump = (async () => {
    try {
      while (!stopped) {
        if (queue.length >= limit) {
          await sleep();
          continue;
        }
        const next = await it.next();
        if (next.done) break;
        queue.push(next.value);
        poke();
      }
    } catch (err) {
      failure = { err };
    } finally {
      finished = true;
      poke();
    }
  })();
  try {
    for (;;) {
      if (queue.length > 0) {
        const value = queue.shift() as T;
        poke();
        yield value;
      } else if (finished) {
        if (failure) throw failure.err;
        return;
      } else await sleep();
    }
  } finally {
    stopped = true;
    poke();
    await pump;
    await it.return?.();
  }
}
