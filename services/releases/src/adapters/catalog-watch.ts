import { CatalogEventType } from "../../gen/releases/v1/releases_pb.js";
import type { Catalog } from "./catalog.js";
import type { CatalogEvents } from "./catalog-events.js";

export interface WatchOptions {
  /** How often the store's catalog is read (ms); default 400. */
  readonly intervalMs?: number;
  readonly onError?: (err: unknown) => void;
}

/**
 * A catalog change is announced on the bus whoever made it: a publish that
 * wrote the store directly (a CI job, `--offline`, the embedded default's
 * `releases publish`) sends no event of its own, so each releases instance
 * reads the catalog's version every `intervalMs` and sends a RESYNC when it
 * moved. Events are fire-and-forget, so every reading is also announced on
 * catalogVersionSubject, changed or not: a gateway that missed an event (a
 * NATS reconnect, a late start) catches up at the next one. Well inside the
 * contract's 2 s at the default 400 ms.
 */
export function watchCatalog(catalog: Catalog, events: CatalogEvents, options: WatchOptions = {}): () => void {
  let last: string | undefined;
  let busy = false;
  let checks = 0;
  const check = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      // Most checks cost one read of the catalog's head; one in 25 reads the whole listing (a race the head misses).
      const { version } = await (checks++ % 25 === 24 ? catalog.relist() : catalog.snapshot());
      if (last !== undefined && version !== last) {
        await events.publish({ type: CatalogEventType.RESYNC, product: "", component: "", releaseId: "", latestChanged: true, catalogVersion: version });
      }
      last = version;
      await events.announceVersion(version);
    } catch (err) {
      options.onError?.(err);
    } finally {
      busy = false;
    }
  };
  void check();
  const timer = setInterval(() => void check(), options.intervalMs ?? 400);
  timer.unref();
  return () => clearInterval(timer);
}
