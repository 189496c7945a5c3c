import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import type { Bus } from "@mc/shared";
import { CatalogEventSchema, CatalogEventType, type CatalogEvent } from "../../gen/releases/v1/releases_pb.js";

/** Every publish is announced here; gateways drop caches, releases instances reload. */
export const catalogEventSubject = "releases.v1.events.catalog";
/**
 * Each releases instance says here, again and again, which catalog version
 * the store holds (a RESYNC CatalogEvent with only catalog_version set). An
 * event is fire-and-forget: a gateway that was reconnecting to NATS, or
 * started after it, hears the next one of these instead. Kept off
 * `catalogEventSubject` so WatchCatalog streams carry changes only.
 */
export const catalogVersionSubject = "releases.v1.events.catalog-version";

export interface CatalogEventInit {
  readonly type: CatalogEventType;
  readonly product: string;
  readonly component: string;
  readonly releaseId: string;
  readonly latestChanged: boolean;
  /** The catalog version that includes the change, when known. */
  readonly catalogVersion?: string;
}

export interface CatalogEvents {
  publish(event: CatalogEventInit): Promise<void>;
  /** Calls back on every event from any process on the bus; returns the unsubscribe. */
  subscribe(callback: (event: CatalogEvent) => void): () => void;
  /** The events from now on, until the signal aborts. */
  watch(signal: AbortSignal): AsyncIterable<CatalogEvent>;
  /** Says which catalog version the store holds now (catalogVersionSubject). */
  announceVersion(version: string): Promise<void>;
  /** Calls back with every version announced by any instance; returns the unsubscribe. */
  onVersion(callback: (version: string) => void): () => void;
}

export function createCatalogEvents(bus: Bus): CatalogEvents {
  function subscribe(callback: (event: CatalogEvent) => void, subject = catalogEventSubject): () => void {
    const sub = bus.subscribe(subject, (msg) => {
      try {
        callback(fromBinary(CatalogEventSchema, msg.data));
      } catch {
        // not a catalog event: ignore rather than take the subscriber down
      }
    });
    return () => sub.unsubscribe();
  }
  return {
    async publish(init) {
      const event = create(CatalogEventSchema, { ...init, occurredAt: new Date().toISOString().replace(/\.\d{3}Z$/, "Z") });
      bus.publish(catalogEventSubject, toBinary(CatalogEventSchema, event));
      await bus.flush();
    },
    subscribe: (callback) => subscribe(callback),
    async announceVersion(version) {
      const event = create(CatalogEventSchema, { type: CatalogEventType.RESYNC, catalogVersion: version, occurredAt: new Date().toISOString().replace(/\.\d{3}Z$/, "Z") });
      bus.publish(catalogVersionSubject, toBinary(CatalogEventSchema, event));
      await bus.flush();
    },
    onVersion: (callback) => subscribe((e) => e.catalogVersion !== "" && callback(e.catalogVersion), catalogVersionSubject),
    async *watch(signal) {
      const queue: CatalogEvent[] = [];
      let wake: (() => void) | undefined;
      const stop = subscribe((e) => {
        queue.push(e);
        wake?.();
      });
      const onAbort = (): void => wake?.();
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        while (!signal.aborted) {
          const next = queue.shift();
          if (next) {
            yield next;
            continue;
          }
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
      } finally {
        stop();
        signal.removeEventListener("abort", onAbort);
      }
    },
  };
}
