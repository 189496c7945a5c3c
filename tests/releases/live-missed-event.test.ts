// run-all: alone (it measures elections, failover or 2 s visibility, which a busy neighbour would distort)
// Issue 17 (audit 3): a catalog event is fire-and-forget. A gateway whose NATS
// connection drops while a release is published misses it; once it is back on
// the bus it must drop its stale answers within 2 s, not serve them for the
// cache's 5 minutes.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@connectrpc/connect";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createFsReleaseStore, publishSampleCatalog, sampleReleases } from "@mc/releases";
import { ReleaseAdminService } from "@mc/releases/gen/releases/v1/releases_pb.js";
import { connectNatsBus, createBusTransport } from "@mc/shared";
import { startNatsServer, type NatsNode } from "../harness/nats-server.js";
import type { Started } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";
import { startGateway, startReleases, visibleWithinMs } from "./live-deployment.js";
import { makeReleaseDir } from "./release-dir.js";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy.js";

interface Ctx {
  root: string;
  nats: NatsNode | undefined;
  proxy: TcpProxy | undefined;
  procs: Started[];
  /** Reaches NATS through the proxy. */
  cutOff: string;
  /** Reaches NATS directly. */
  other: string;
}
const missed = suite<Ctx>("a gateway that missed the catalog event", { root: "", nats: undefined, proxy: undefined, procs: [], cutOff: "", other: "" });

missed.before(async (ctx) => {
  ctx.root = await mkdtemp(join(tmpdir(), "live-missed-"));
  const store = join(ctx.root, "store");
  const key = join(ctx.root, "minisign.key");
  await publishSampleCatalog(await createFsReleaseStore(store), key);
  ctx.nats = await startNatsServer();
  ctx.proxy = await startTcpProxy(ctx.nats.port);
  ctx.procs.push(await startReleases(ctx.nats.url, store, key));
  const a = await startGateway(["--nats", `nats://127.0.0.1:${ctx.proxy.port}`, "--store", store, "--base-url", "http://dl.example.test"]);
  const b = await startGateway(["--nats", ctx.nats.url, "--store", store, "--base-url", "http://dl.example.test"]);
  ctx.procs.push(a.proc, b.proc);
  ctx.cutOff = a.base;
  ctx.other = b.base;
});

missed.after(async (ctx) => {
  await Promise.all(ctx.procs.map((p) => p.stop()));
  await ctx.proxy?.close();
  await ctx.nats?.stop();
  await rm(ctx.root, { recursive: true, force: true });
});

const latest = async (base: string): Promise<string> => ((await (await fetch(`${base}/api/releases/client/latest`)).json()) as Array<{ release_id: string }>)[0]?.release_id ?? "";

missed("should serve the new release within 2 s of being back on NATS", async (ctx) => {
  const { proxy } = ctx;
  if (!proxy) throw new Error("no proxy");
  const old = sampleReleases.filter((r) => r.product === "client").map((r) => r.releaseId).sort().at(-1) ?? "";
  // Both gateways have the API's answer cached (and on their hot path).
  for (const base of [ctx.cutOff, ctx.other]) for (let i = 0; i < 3; i++) assert.is(await latest(base), old);

  proxy.cut();
  await waitFor(async () => (await fetch(`${ctx.cutOff}/healthz`)).status === 503, { what: "the gateway off the bus", timeoutMs: 10000 });
  const id = "RELEASE.2026-12-01T10-00-00Z";
  const dir = await makeReleaseDir(join(ctx.root, "dist"), { component: "mc", releaseId: id });
  const bus = await connectNatsBus({ servers: [ctx.nats?.url ?? ""], name: "missed-event-test" });
  try {
    const admin = createClient(ReleaseAdminService, createBusTransport({ bus, defaultTimeoutMs: 60000 }));
    await admin.publishRelease({ product: "client", component: "mc", releaseId: id, sourceDir: dir });
  } finally {
    await bus.close();
  }
  await waitFor(async () => (await latest(ctx.other)) === id, { what: `${id} on the gateway that heard the event`, timeoutMs: 2000 });
  assert.is(await latest(ctx.cutOff), old, "the cut-off gateway still answers from its cache");

  const restored = performance.now();
  proxy.restore();
  const back = await waitFor(() => ((proxy.lastConnectedAt() ?? 0) > restored ? proxy.lastConnectedAt() : undefined), { what: "the gateway reconnecting to NATS", timeoutMs: 15000 });
  const seen = await waitFor(async () => ((await latest(ctx.cutOff)) === id ? performance.now() : undefined), { what: `${id} on the gateway that missed the event`, timeoutMs: 10000, intervalMs: 20 });
  assert.ok(seen - back <= visibleWithinMs, `${Math.round(seen - back)} ms after it was back on NATS`);
  assert.ok((await fetch(`${ctx.cutOff}/healthz`)).ok);
});

missed.run();
