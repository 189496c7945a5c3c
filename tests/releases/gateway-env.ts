import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCatalogEvents, createFsReleaseStore, publishSampleCatalog, runPublish, serveReleases, type ReleaseStore } from "@mc/releases";
import { createMemoryBroker, type Bus } from "@mc/shared";
import { createBusHealth } from "../../gateway/src/bus-health.js";
import { createGateway, type Gateway } from "../../gateway/src/http-server.js";
import { makeReleaseDir } from "./release-dir.js";

/** The embedded topology in this process: store, release service, gateway, on an in-process bus. */
export interface GatewayEnv {
  readonly base: string;
  readonly store: ReleaseStore;
  readonly root: string;
  readonly gateway: Gateway;
  /** Requests that reached ReleaseService, counted on the bus. */
  serviceCalls(): number;
  /** Moves the gateway's clock forward. */
  advance(ms: number): void;
  publish(component: string, releaseId: string, notes?: string): Promise<void>;
  close(): Promise<void>;
}

export interface GatewayEnvOptions {
  /** How often the release service reads the catalog for changes made behind its back (ms). */
  readonly watchMs?: number;
}

export async function startGatewayEnv(options: GatewayEnvOptions = {}): Promise<GatewayEnv> {
  const root = await mkdtemp(join(tmpdir(), "gateway-env-"));
  const store = await createFsReleaseStore(join(root, "releases"));
  const keyFile = join(root, "minisign.key");
  await publishSampleCatalog(store, keyFile);
  const broker = createMemoryBroker();
  const buses: Bus[] = [broker.connect(), broker.connect(), broker.connect()];
  const [releasesBus, gatewayBus, probeBus] = buses as [Bus, Bus, Bus];
  let calls = 0;
  probeBus.subscribe("releases.v1.ReleaseService.>", () => (calls += 1));
  let offset = 0;
  const base = "http://downloads.example.test";
  const releases = await serveReleases({ bus: releasesBus, store, base, ...(options.watchMs !== undefined ? { watchMs: options.watchMs } : {}) });
  const busHealth = createBusHealth(gatewayBus);
  const gateway = createGateway({ bus: gatewayBus, busHealth, busName: "in-process", store, base, startedAt: new Date(), now: () => Date.now() + offset });
  await new Promise<void>((resolve) => gateway.server.listen(0, "127.0.0.1", resolve));
  const port = (gateway.server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    store,
    root,
    gateway,
    serviceCalls: () => calls,
    advance(ms) {
      offset += ms;
    },
    async publish(component, releaseId, notes) {
      const dir = await makeReleaseDir(join(root, `src-${component}-${releaseId}`), { component, releaseId, ...(notes ? { notes } : {}) });
      await runPublish({ store, keyFile, product: "client", component, releaseId, from: dir, events: createCatalogEvents(releasesBus) });
    },
    async close() {
      gateway.close();
      busHealth.close();
      releases.close();
      await Promise.all(buses.map((b) => b.close()));
      await rm(root, { recursive: true, force: true });
    },
  };
}
