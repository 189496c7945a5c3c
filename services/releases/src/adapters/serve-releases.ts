import { createConnectRouter } from "@connectrpc/connect";
import { createRpcLogInterceptor, serveOverBus, type BusServer } from "@mc/shared/connect";
import type { Bus } from "@mc/shared/bus";
import type { Logger } from "@mc/shared/node";
import { ReleaseAdminService, ReleaseService } from "../../gen/releases/v1/releases_pb.js";
import type { ReleaseStore } from "../domain/release-store.js";
import { createCatalog, type Catalog } from "./catalog.js";
import { createCatalogEvents } from "./catalog-events.js";
import { watchCatalog } from "./catalog-watch.js";
import { createReleaseAdminImpl } from "./release-admin-impl.js";
import { createReleaseServiceImpl } from "./release-service-impl.js";

export interface ReleasesServer {
  readonly catalog: Catalog;
  close(): void;
  /** Leaves the queue group after answering every call on its way. */
  drain(): Promise<void>;
}

export interface ServeReleasesOptions {
  readonly bus: Bus;
  readonly store: ReleaseStore;
  readonly base: string;
  readonly log?: Logger;
  /** The signing key publishes through this service use; without it ReleaseAdminService refuses to publish. */
  readonly keyFile?: string;
  /** How often the catalog is checked for changes made outside this service (ms). */
  readonly watchMs?: number;
}

/**
 * Serves ReleaseService and ReleaseAdminService on the bus (queue group per
 * service, so instances share the load), reading the catalog from the shared
 * store, and announces every catalog change, however it was made.
 */
export async function serveReleases(options: ServeReleasesOptions): Promise<ReleasesServer> {
  const catalog = createCatalog(options.store);
  const events = createCatalogEvents(options.bus);
  const router = createConnectRouter(options.log ? { interceptors: [createRpcLogInterceptor(options.log)] } : {});
  router.service(ReleaseService, createReleaseServiceImpl({ catalog, base: options.base, events }));
  router.service(ReleaseAdminService, createReleaseAdminImpl({ store: options.store, keyFile: options.keyFile, events }));
  const server: BusServer = serveOverBus(options.bus, router.handlers);
  const stopWatch = watchCatalog(catalog, events, {
    ...(options.watchMs !== undefined ? { intervalMs: options.watchMs } : {}),
    onError: (err) => options.log?.warn({ err }, "catalog watch failed"),
  });
  await options.bus.flush();
  return {
    catalog,
    close: () => {
      stopWatch();
      server.close();
    },
    drain: () => {
      stopWatch();
      return server.drain();
    },
  };
}
