import { earlyMessages } from "../domain/early-send.js";
import type { Entry, HardState, Message, Ready } from "../domain/types.js";

export interface ReadyLoopOptions {
  /** Makes state durable (fsync) before resolving. */
  persist(ready: Pick<Ready, "hardState" | "entries" | "snapshot">): Promise<void>;
  send(message: Message): void;
  apply(ready: Ready): Promise<void>;
  /** A persist or apply failed: the loop drops what is queued and stops for good (later pushes are dropped too). */
  onError(error: unknown): void;
}

export interface ReadyLoop {
  /** Queues a Ready; resolves once it was persisted, sent and applied. */
  push(ready: Ready): Promise<void>;
  /** Resolves when the queue is empty. */
  idle(): Promise<void>;
}

/**
 * Handles Readies strictly in order: persist (consecutive Readies share one
 * fsync; a snapshot is written on its own, before the entries after it),
 * then send, then apply. Nothing is sent before what it depends on is
 * durable, except a leader's AppendEntries of a run that keeps the durable
 * term (early-send.ts): those leave as the run starts to persist, so the
 * followers' disks work while the leader's does.
 */
export function createReadyLoop(o: ReadyLoopOptions): ReadyLoop {
  const queue: { ready: Ready; done: () => void }[] = [];
  let running: Promise<void> | undefined;
  // Set by the first failure: the Readies queued then are dropped, so no later one may be
  // persisted (its entries would follow a gap) or sent (it may depend on a dropped one).
  let failed = false;
  let durable: HardState | undefined;

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) {
        const items = queue.splice(0);
        let merged: { hardState: Ready["hardState"]; entries: Entry[]; snapshot: undefined } = { hardState: undefined, entries: [], snapshot: undefined };
        const flush = async (): Promise<void> => {
          if (merged.hardState || merged.entries.length > 0) await o.persist(merged);
          if (merged.hardState) durable = merged.hardState;
          merged = { hardState: undefined, entries: [], snapshot: undefined };
        };
        const early = new Set(earlyMessages(items.map((i) => i.ready), durable));
        for (const m of early) o.send(m);
        for (const { ready } of items) {
          if (ready.snapshot) {
            await flush();
            await o.persist(ready);
            if (ready.hardState) durable = ready.hardState;
            continue;
          }
          merged.entries.push(...ready.entries);
          if (ready.hardState) merged.hardState = ready.hardState;
        }
        await flush();
        for (const { ready } of items) for (const m of ready.messages) if (!early.has(m)) o.send(m);
        for (const { ready } of items) await o.apply(ready);
        for (const { done } of items) done();
      }
    } catch (err) {
      failed = true;
      queue.length = 0;
      o.onError(err);
    } finally {
      running = undefined;
    }
  }

  return {
    push(ready) {
      // Dropped as the queued ones were: it never settles, nothing waits on it as done.
      if (failed) return new Promise<void>(() => undefined);
      return new Promise((done) => {
        queue.push({ ready, done });
        running ??= drain();
      });
    },
    idle: () => running ?? Promise.resolve(),
  };
}
