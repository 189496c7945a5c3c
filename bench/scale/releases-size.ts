// One catalog size of `npm run bench scale` (a child process, so its peak
// RSS is its own): a catalog of N releases of client/mc with 4 platforms
// each, served by the release service and the gateway in this process.
// N - 5 releases are written as catalog records (their files do not matter
// to the measured routes); 5 more go through the real publish path, timed.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBusHealth, createGateway } from "@mc/gateway";
import { createFsReleaseStore, layout, runPublish, runSbom, serveReleases } from "@mc/releases";
import { createMemoryBroker, type Bus } from "@mc/shared/bus";
import { median, timed } from "./growth.js";

const size = Number(process.argv[2] ?? 100);
const published = 5;
const platforms = ["linux-amd64", "linux-arm64", "linux-ppc64le", "windows-amd64"];
const idOf = (i: number): string => `RELEASE.${new Date(Date.UTC(2000, 0, 1) + i * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z").replace(/:/g, "-")}`;

async function releaseDir(root: string, releaseId: string): Promise<string> {
  const dir = join(root, releaseId);
  for (const p of platforms) {
    await mkdir(join(dir, p), { recursive: true });
    await writeFile(join(dir, p, p.startsWith("windows") ? "mc.exe" : "mc"), `mc ${releaseId} ${p}\n`.repeat(256));
  }
  await writeFile(join(dir, `release-notes-${releaseId}.md`), `# mc ${releaseId}\n\nFixes.\n`);
  await writeFile(join(dir, `gomod-${releaseId}.txt`), "github.com/minio/mc\ngithub.com/a/lib v1.2.3\n");
  await writeFile(join(dir, "licenses.json"), JSON.stringify({ "github.com/minio/mc": "AGPL-3.0-or-later", "github.com/a/lib": "MIT" }));
  await runSbom({ from: join(dir, `gomod-${releaseId}.txt`), licenses: join(dir, "licenses.json"), component: "mc", releaseId });
  await rm(join(dir, "licenses.json"));
  return dir;
}

const root = await mkdtemp(join(tmpdir(), "bench-scale-releases-"));
try {
  const store = await createFsReleaseStore(join(root, "store"));
  const enc = new TextEncoder();
  for (let i = 0; i < size - published; i++) {
    const releaseId = idOf(i);
    const entry = {
      product: "client", component: "mc", releaseId, releaseDate: new Date(Date.UTC(2000, 0, 1) + i * 3_600_000 + 60_000).toISOString().replace(/\.\d{3}Z$/, "Z"), status: "supported",
      platforms: platforms.map((p) => ({ os: p.split("-")[0], arch: p.split("-")[1], size: 4096, sha256: "0".repeat(64) })),
      documents: [],
    };
    await store.write(layout.catalogEntry("client", "mc", releaseId), enc.encode(JSON.stringify(entry)));
  }
  const keyFile = join(root, "minisign.key");
  const dirs: string[] = [];
  for (let i = 0; i < published; i++) dirs.push(await releaseDir(join(root, "src"), idOf(size - published + i)));
  const publishMs: number[] = [];
  for (const [i, from] of dirs.entries()) {
    publishMs.push((await timed(() => runPublish({ store, keyFile, createKey: true, product: "client", component: "mc", releaseId: idOf(size - published + i), from }))).ms);
  }

  const broker = createMemoryBroker();
  const [releasesBus, gatewayBus] = [broker.connect(), broker.connect()] as [Bus, Bus];
  const base = "http://dl.example.test";
  const rssBefore = process.memoryUsage().rss;
  const releases = await serveReleases({ bus: releasesBus, store, base, watchMs: 3_600_000 });
  const busHealth = createBusHealth(gatewayBus);
  const gateway = createGateway({ bus: gatewayBus, busHealth, busName: "in-process", store, base, startedAt: new Date(), now: () => Date.now() });
  await new Promise<void>((resolve) => gateway.server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  const get = async (path: string): Promise<number> => {
    const r = await timed(async () => {
      const res = await fetch(`${url}${path}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    });
    return r.ms;
  };

  // The first answer after a change reads the catalog listing once (the service's snapshot).
  const firstAfterChange = await get("/api/releases/client?limit=20");
  // Cold: each URL new to the gateway's cache (a different cursor), answered by the service.
  const cold: number[] = [];
  for (let i = 0; i < 20; i++) cold.push(await get(`/api/releases/client?limit=20&after=${idOf(Math.floor(((size - published) * (i + 1)) / 21))}`));
  const warm: number[] = [];
  for (let i = 0; i < 30; i++) warm.push(await get("/api/releases/client?limit=20"));
  const latestCold: number[] = [];
  for (const q of ["", "?os=linux", "?arch=arm64", "?os=windows&arch=amd64", "?component=mc", "?component=mc&os=linux&arch=ppc64le"]) latestCold.push(await get(`/api/releases/client/latest${q}`));
  const latestWarm: number[] = [];
  for (let i = 0; i < 30; i++) latestWarm.push(await get("/api/releases/client/latest"));
  const feedJson = await get("/api/feeds/client.json");
  const feedRss = await get("/feed-client.rss");
  const notesIndex = await get("/client/mc/release/notes/");
  const page = await get("/client/releases");
  const whole = await get("/api/releases/client");
  const rssAfter = process.memoryUsage().rss;
  gateway.close();
  busHealth.close();
  releases.close();
  await Promise.all([releasesBus.close(), gatewayBus.close()]);
  const result = {
    publishMs: median(publishMs),
    firstAfterChange,
    listCold: median(cold),
    listWarm: median(warm),
    latestCold: median(latestCold),
    latestWarm: median(latestWarm),
    feedJson,
    feedRss,
    notesIndex,
    page,
    whole,
    gatewayRssMiB: rssAfter / 2 ** 20,
    gatewayGrowthMiB: (rssAfter - rssBefore) / 2 ** 20,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
} finally {
  await rm(root, { recursive: true, force: true });
}
