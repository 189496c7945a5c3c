import { createConnectRouter } from "@connectrpc/connect";
import { createRpcLogInterceptor, serveOverBus, type Bus, type BusServer, type Logger } from "@mc/shared";
import { ReleaseService } from "../../gen/releases/v1/releases_pb.js";
import type { ReleaseStore } from "../domain/release-store.js";
import { createCatalog, type Catalog } from "./catalog.js";
import { createCatalogEvents } from "./catalog-events.js";
import { createReleaseServiceImpl } from "./release-service-impl.js";

export interface ReleasesServer {
  readonly catalog: Catalog;
  close(): void;
  /** Leaves the queue group after answering every call on its way. */
  drain(): Promise<void>;
}

/**
 * Serves ReleaseService on the bus (queue group per service, so instances
 * share the load), reading the catalog from the shared store.
 */
export async function serveReleases(options: { bus: Bus; store: ReleaseStore; base: string; log?: Logger }): Promise<ReleasesServer> {
  const catalog = createCatalog(options.store);
  const events = createCatalogEvents(options.bus);
  const router = createConnectRouter(options.log ? { interceptors: [createRpcLogInterceptor(options.log)] } : {});
  router.service(ReleaseService, createReleaseServiceImpl({ catalog, base: options.base, events }));
  const server: BusServer = serveOverBus(options.bus, router.handlers);
  await options.bus.flush();
  return {
    catalog,
    close: () => server.close(),
    drain: () => server.drain(),
  };
}
