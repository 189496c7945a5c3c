import { AppError } from "@mc/shared/errors";

export interface StreamHalt {
  /**
   * `pieces` until the node halts: then it throws ("consensus node stopped")
   * at once, without waiting for a piece that is slow to come, and ends the
   * producer without awaiting it (a producer in the middle of a piece
   * finishes it, then ends). `running` is checked before each piece.
   */
  guard(pieces: AsyncIterable<Uint8Array>, running: () => boolean): AsyncGenerator<Uint8Array>;
  /** Ends every stream guarded now. */
  halt(): void;
  /** Streams guarded now. */
  readonly active: number;
}

/**
 * Each guarded stream has its own stop signal, dropped when the stream ends:
 * racing every piece against one promise that lives as long as the node kept
 * a reaction per piece (about 300 bytes) until the node stopped, thousands
 * per snapshot of a large state.
 */
export function createStreamHalt(): StreamHalt {
  const stops = new Set<() => void>();
  async function* guard(pieces: AsyncIterable<Uint8Array>, running: () => boolean): AsyncGenerator<Uint8Array> {
    let stop: () => void = () => undefined;
    const stopped = new Promise<undefined>((resolve) => (stop = () => resolve(undefined)));
    stops.add(stop);
    const it = pieces[Symbol.asyncIterator]();
    let ended = false;
    try {
      for (;;) {
        const piece = it.next();
        // A piece that fails after a stop is nobody's error.
        piece.catch(() => undefined);
        const next = running() ? await Promise.race([piece, stopped]) : undefined;
        if (!next || !running()) throw new AppError("unavailable", "consensus node stopped");
        if (next.done) {
          ended = true;
          return;
        }
        yield next.value;
      }
    } finally {
      stops.delete(stop);
      if (!ended) void it.return?.()?.catch(() => undefined);
    }
  }
  return {
    guard,
    halt() {
      for (const stop of stops) stop();
      stops.clear();
    },
    get active() {
      return stops.size;
    },
  };
}
