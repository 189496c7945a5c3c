import { CatalogEventType } from "../../gen/releases/v1/releases_pb.js";
import type { Catalog } from "./catalog.js";
import type { CatalogEvents } from "./catalog-events.js";

/**
 * A catalog change is announced on the bus whoever made it: a publish that
 * wrote the store directly (a CI job, `--offline`, the embedded default's
 * `releases publish`) sends no event of its own, so each releases instance
 * reads the catalog's version every `intervalMs` and sends a RESYNC when it
 * moved. Well inside the contract's 2 s at the default 400 ms.
 */
export function watchCatalog(catalog: Catalog, events: CatalogEvents, options: { intervalMs?: number; onError?: (err: unknown) => void } = {}): () => void {
  let last: string | undefined;
  let busy = false;
  const check = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      const { version } = await catalog.snapshot();
      if (last !== undefined && version !== last) {
        await events.publish({ type: CatalogEventType.RESYNC, product: "", component: "", releaseId: "", latestChanged: true, catalogVersion: version });
      }
      last = version;
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
