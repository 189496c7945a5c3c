import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createFsReleaseStore, layout, publishSampleCatalog, runPublish, serveReleases, type ReleaseStore } from "@mc/releases";
import { createMemoryBroker, type Bus } from "@mc/shared/bus";
import { createBusHealth, createGateway, type Gateway } from "@mc/gateway";
import { makeReleaseDir } from "./release-dir.js";

// Issue 26: no request path costs the catalog. With a few hundred releases
// in the store, a list page, `latest`, a feed or one release must read no
// catalog record and list no folder once the catalog is known, and a
// publish reads the newest record only, not every one of its component.

interface Counts {
  records: number;
  listed: number;
}
interface Ctx {
  root: string;
  counts: Counts;
  gateway?: Gateway;
  close: Array<() => Promise<void> | void>;
  base: string;
  publish(releaseId: string): Promise<void>;
}
const scale = suite<Ctx>("releases: request cost independent of the catalog", { root: "", counts: { records: 0, listed: 0 }, close: [], base: "", publish: async () => undefined });
const synthetic = 300;

/** The store as the release service sees it, counting catalog records read and names listed. */
function counting(inner: ReleaseStore, counts: Counts): ReleaseStore {
  return {
    ...inner,
    read: (path) => {
      if (path.startsWith("_catalog/") && path.endsWith(".json")) counts.records += 1;
      return inner.read(path);
    },
    list: async (dir) => {
      const names = await inner.list(dir);
      counts.listed += names.length;
      return names;
    },
  };
}

const idOf = (i: number): string => {
  const t = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z").replace(/:/g, "-");
  return `RELEASE.${t}`;
};

scale.before(async (ctx) => {
  ctx.root = await mkdtemp(join(tmpdir(), "catalog-scale-"));
  const plain = await createFsReleaseStore(join(ctx.root, "releases"));
  const keyFile = join(ctx.root, "minisign.key");
  await publishSampleCatalog(plain, keyFile);
  // Older releases of client/mc written as their records (the files behind them do not matter here).
  const enc = new TextEncoder();
  for (let i = 0; i < synthetic; i++) {
    const releaseId = idOf(i);
    const platforms = ["amd64", "arm64", "ppc64le"].map((arch) => ({ os: "linux", arch, size: 10, sha256: "0".repeat(64) }));
    const entry = { product: "client", component: "mc", releaseId, releaseDate: "2026-01-01T00:00:00Z", status: "supported", platforms, documents: [] };
    await plain.write(layout.catalogEntry("client", "mc", releaseId), enc.encode(JSON.stringify(entry)));
  }
  const store = counting(plain, ctx.counts);
  ctx.publish = async (releaseId) => {
    const dir = await makeReleaseDir(join(ctx.root, `src-${releaseId}`), { component: "mc", releaseId });
    await runPublish({ store, keyFile, product: "client", component: "mc", releaseId, from: dir });
  };
  const broker = createMemoryBroker();
  const [releasesBus, gatewayBus] = [broker.connect(), broker.connect()] as [Bus, Bus];
  const releases = await serveReleases({ bus: releasesBus, store, base: "http://dl.example.test", watchMs: 3_600_000 });
  const busHealth = createBusHealth(gatewayBus);
  const gateway = createGateway({ bus: gatewayBus, busHealth, busName: "in-process", store: plain, base: "http://dl.example.test", startedAt: new Date(), now: () => Date.now() });
  await new Promise<void>((resolve) => gateway.server.listen(0, "127.0.0.1", resolve));
  ctx.base = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  ctx.close.push(() => gateway.close(), () => busHealth.close(), () => releases.close(), () => releasesBus.close(), () => gatewayBus.close());
  // The service's first reading of the catalog (its watcher starts one too, sharing it) is done before anything is counted.
  assert.is((await fetch(`${ctx.base}/api/releases/client?limit=1`)).status, 200);
});
scale.after(async (ctx) => {
  for (const c of ctx.close) await c();
  await rm(ctx.root, { recursive: true, force: true });
});

scale("should publish reading the newest record of the component, not all of them", async (ctx) => {
  ctx.counts.records = 0;
  await ctx.publish("RELEASE.2026-11-20T00-00-00Z");
  // The release's own record (already published?) and the newest one; the 300 older ones stay unread.
  assert.ok(ctx.counts.records <= 3, `publish read ${ctx.counts.records} catalog records`);
});

scale("should answer list pages, latest, feeds and one release without reading the catalog again", async (ctx) => {
  // The first answer after a publish reads the listing once (the catalog changed).
  const first = await fetch(`${ctx.base}/api/releases/client?limit=2`);
  assert.is(first.status, 200);
  ctx.counts.records = 0;
  ctx.counts.listed = 0;
  // Each is a different request, so each misses the gateway's cache and reaches the service.
  const page = await fetch(`${ctx.base}/api/releases/client?limit=5&after=${idOf(200)}`);
  assert.is(page.status, 200);
  const records = (await page.json()) as Array<{ release_id: string }>;
  assert.equal(records.map((r) => r.release_id), [199, 198, 197, 196, 195].map(idOf));
  assert.match(page.headers.get("link") ?? "", new RegExp(`after=${idOf(195).replace(/\./g, "\\.")}>; rel="next"$`));
  const latest = (await (await fetch(`${ctx.base}/api/releases/client/latest?os=linux&arch=arm64`)).json()) as Array<{ release_id: string }>;
  assert.equal(latest.map((r) => r.release_id), ["RELEASE.2026-11-20T00-00-00Z"]);
  const oldest = (await (await fetch(`${ctx.base}/api/releases/client?component=mc&limit=100&after=${idOf(3)}`)).json()) as Array<{ release_id: string }>;
  assert.equal(oldest.map((r) => r.release_id), [2, 1, 0].map(idOf));
  assert.is((await fetch(`${ctx.base}/api/feeds/client.json`)).status, 200);
  assert.is((await fetch(`${ctx.base}/feed-client.rss`)).status, 200);
  assert.is((await fetch(`${ctx.base}/client/mc/release/linux-amd64/archive/mc.RELEASE.2026-11-20T00-00-00Z.sha256sum`)).status, 200);
  assert.equal(ctx.counts, { records: 0, listed: 0 }, "a request read the catalog");
});

scale("should see a publish made behind the service's back at the very next request", async (ctx) => {
  await ctx.publish("RELEASE.2026-11-21T00-00-00Z");
  const latest = (await (await fetch(`${ctx.base}/api/releases/client/latest?component=mc&os=windows`)).json()) as Array<{ release_id: string }>;
  assert.equal(latest.map((r) => r.release_id), ["RELEASE.2026-11-21T00-00-00Z"]);
});

scale.run();
