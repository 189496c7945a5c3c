import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { runPublish } from "@mc/releases";
import { startGatewayEnv, type GatewayEnv } from "./gateway-env.js";
import { makeReleaseDir } from "./release-dir.js";

// Issue 17 (audit 2): the landing page and every browsable index come from one
// catalog snapshot and carry its `catalog-version`, so the gateway caches,
// drops and orders them with the API's answers: one never names a release the
// other does not.

interface Ctx {
  env: GatewayEnv;
}
const versions = suite<Ctx>("indexes and the landing page follow the catalog version", { env: undefined as never });

versions.before(async (ctx) => {
  // The release service reads the store for changes only once a minute here: a write
  // behind its back reaches the gateway through the answers alone.
  ctx.env = await startGatewayEnv({ watchMs: 60_000 });
});
versions.after(async (ctx) => {
  await ctx.env.close();
});

const html = { accept: "text/html" };
const json = { accept: "application/json" };
const indexes = ["/", "/client/", "/client/mc/", "/client/mc/release/", "/client/mc/release/linux-amd64/", "/client/mc/release/linux-amd64/archive/"];

async function latestId(base: string): Promise<string> {
  return ((await (await fetch(`${base}/api/releases/client/latest`)).json()) as Array<{ release_id: string }>)[0]?.release_id ?? "";
}

versions("should tag the landing page and every index, in HTML and JSON, with the catalog version the API has", async ({ env }) => {
  const api = (await fetch(`${env.base}/api/releases/client/latest`)).headers.get("catalog-version");
  assert.match(api ?? "", /^\d+\.[0-9a-f]{8}$/);
  for (const path of indexes) {
    for (const headers of [html, json]) {
      const res = await fetch(`${env.base}${path}`, { headers });
      assert.is(res.status, 200, path);
      assert.is(res.headers.get("catalog-version"), api, `${path} (${headers.accept})`);
    }
  }
});

versions("should make a platform index from one call to the release service (one snapshot)", async ({ env }) => {
  const before = env.serviceCalls();
  const res = await fetch(`${env.base}/client/mc/release/linux-arm64/`, { headers: html });
  assert.is(res.status, 200);
  assert.is(env.serviceCalls() - before, 1);
});

versions("should never show a release in an index while the API still names the one before (a write the service was not told of)", async ({ env }) => {
  const old = await latestId(env.base);
  const id = "RELEASE.2026-12-30T10-00-00Z";
  const dir = await makeReleaseDir(join(env.root, "behind-its-back"), { component: "mc", releaseId: id });
  // A CI job writing the store: no event, and the service's watcher is a minute away.
  await runPublish({ store: env.store, keyFile: join(env.root, "minisign.key"), product: "client", component: "mc", releaseId: id, from: dir });
  assert.is(await latestId(env.base), old, "the API answers from its cache");
  // An index not cached yet is made from the new catalog: the gateway must move everything with it.
  const index = await (await fetch(`${env.base}/client/mc/release/windows-amd64/`, { headers: html })).text();
  assert.match(index, id);
  assert.is(await latestId(env.base), id, "the API still names the release before the one the index names");
  const landing = await fetch(`${env.base}/`, { headers: json });
  assert.is(landing.headers.get("catalog-version"), (await fetch(`${env.base}/api/releases/client/latest`)).headers.get("catalog-version"));
});

versions.run();
