import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createMemoryBroker, type Bus } from "@mc/shared";
import type { CatalogEvent } from "../../gen/releases/v1/releases_pb.js";
import type { CatalogEntry } from "../domain/catalog-entry.js";
import { layout } from "../domain/layout.js";
import type { ReleaseStore } from "../domain/release-store.js";
import { createCatalog } from "./catalog.js";
import { createCatalogEvents } from "./catalog-events.js";
import { watchCatalog } from "./catalog-watch.js";
import { createFsReleaseStore } from "./fs-release-store.js";

/** Resolves with the first value `pick` finds among what `subscribe` delivers, or fails after `ms`. */
function next<T, E>(subscribe: (cb: (e: E) => void) => () => void, pick: (e: E) => T | undefined, ms = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (stop(), reject(new Error(`nothing within ${ms} ms`))), ms);
    const stop = subscribe((e) => {
      const v = pick(e);
      if (v === undefined) return;
      clearTimeout(timer);
      stop();
      resolve(v);
    });
  });
}

/** A catalog record written straight into the store, as another process (a CI job) would. */
async function record(store: ReleaseStore, releaseId: string): Promise<void> {
  const entry: CatalogEntry = { product: "client", component: "mc", releaseId, releaseDate: "2026-01-01T00:00:00Z", status: "supported", platforms: [], documents: [] };
  await store.write(layout.catalogEntry("client", "mc", releaseId), new TextEncoder().encode(JSON.stringify(entry)));
}

interface Ctx {
  root: string;
  store: ReleaseStore;
  buses: Bus[];
  stops: Array<() => void>;
}
const watch = suite<Ctx>("catalog watch", { root: "", store: undefined as never, buses: [], stops: [] });

watch.before.each(async (ctx) => {
  ctx.root = await mkdtemp(join(tmpdir(), "catalog-watch-"));
  ctx.store = await createFsReleaseStore(ctx.root);
  await record(ctx.store, "RELEASE.2026-01-01T00-00-00Z");
  const broker = createMemoryBroker();
  ctx.buses = [broker.connect(), broker.connect()];
  ctx.stops = [];
});
watch.after.each(async (ctx) => {
  for (const stop of ctx.stops) stop();
  await Promise.all(ctx.buses.map((b) => b.close()));
  await rm(ctx.root, { recursive: true, force: true });
});

const start = (ctx: Ctx): { listener: ReturnType<typeof createCatalogEvents> } => {
  const [service, listener] = ctx.buses as [Bus, Bus];
  ctx.stops.push(watchCatalog(createCatalog(ctx.store), createCatalogEvents(service), { intervalMs: 50 }));
  return { listener: createCatalogEvents(listener) };
};

watch("should announce a change written straight into the store (no event of its own), with the new version", async (ctx) => {
  const { listener } = start(ctx);
  const before = await next((cb) => listener.onVersion(cb), (v: string) => v);
  const changed = next((cb) => listener.subscribe(cb), (e: CatalogEvent) => e.catalogVersion);
  await record(ctx.store, "RELEASE.2026-02-01T00-00-00Z");
  const version = await changed;
  assert.is.not(version, before);
  assert.match(version, /^2\./);
});

watch("should repeat the current version, so one who missed the change event catches up without it", async (ctx) => {
  const { listener } = start(ctx);
  await next((cb) => listener.onVersion(cb), (v: string) => v);
  await record(ctx.store, "RELEASE.2026-02-01T00-00-00Z");
  // Joins after the change was announced: only the repeated version can tell it.
  await next((cb) => listener.subscribe(cb), (e: CatalogEvent) => e.catalogVersion);
  const heard = await next((cb) => listener.onVersion(cb), (v: string) => (v.startsWith("2.") ? v : undefined));
  assert.match(heard, /^2\.[0-9a-f]{8}$/);
  // And again, with nothing changed: a gateway started now hears it too.
  assert.is(await next((cb) => listener.onVersion(cb), (v: string) => v), heard);
});

watch("should send no change event while nothing changes", async (ctx) => {
  const { listener } = start(ctx);
  const changes: CatalogEvent[] = [];
  ctx.stops.push(listener.subscribe((e) => changes.push(e)));
  let repeats = 0;
  await next((cb) => listener.onVersion(cb), () => (++repeats >= 4 ? true : undefined));
  assert.equal(changes, []);
});

watch.run();
