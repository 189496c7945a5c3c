// run-all: alone (it measures elections, failover or 2 s visibility, which a busy neighbour would distort)
// Issue 17 (audit 5): the same live publishing on the S3 store (Ceph RGW):
// two releases instances and two gateways over NATS share one bucket; every
// publish through the release service shows on both gateways within 2 s, and
// the 20 ms pollers never see a gateway name two releases at one instant.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@connectrpc/connect";
import { Client } from "minio";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createS3ReleaseStore, publishSampleCatalog } from "@mc/releases";
import { ReleaseAdminService } from "@mc/releases/gen/releases/v1/releases_pb.js";
import { connectNatsBus, createBusTransport } from "@mc/shared";
import { startCephRgw, type CephRgw } from "../harness/ceph-rgw.js";
import { startNatsServer, type NatsNode } from "../harness/nats-server.js";
import type { Started } from "../harness/processes.js";
import { check, publishAll, startGateway, startReleases } from "./live-deployment.js";
import { startPolling } from "./live-poller.js";

const publishes = 10;
const storeSpec = "s3://releases/dl";

interface Ctx {
  root: string;
  rgw: CephRgw | undefined;
  nats: NatsNode | undefined;
  procs: Started[];
  bases: string[];
}
const s3 = suite<Ctx>("live publish: two gateways over NATS on an S3 store (Ceph RGW)", { root: "", rgw: undefined, nats: undefined, procs: [], bases: [] });

s3.before(async (ctx) => {
  ctx.root = await mkdtemp(join(tmpdir(), "live-s3-"));
  const rgw = await startCephRgw();
  ctx.rgw = rgw;
  const url = new URL(rgw.endpoint);
  await new Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey: rgw.accessKey, secretKey: rgw.secretKey, region: rgw.region, pathStyle: true }).makeBucket("releases", rgw.region);
  const key = join(ctx.root, "minisign.key");
  const s3Options = { endpoint: rgw.endpoint, bucket: "releases", prefix: "dl", accessKey: rgw.accessKey, secretKey: rgw.secretKey, region: rgw.region };
  await publishSampleCatalog(await createS3ReleaseStore(s3Options), key);
  // Every process learns the bucket from `--store s3://…` and these, as an operator configures it.
  const env = { ...process.env, RELEASES_S3_ENDPOINT: rgw.endpoint, RELEASES_S3_ACCESS_KEY: rgw.accessKey, RELEASES_S3_SECRET_KEY: rgw.secretKey, RELEASES_S3_REGION: rgw.region };
  ctx.nats = await startNatsServer();
  for (let i = 0; i < 2; i++) ctx.procs.push(await startReleases(ctx.nats.url, storeSpec, key, env));
  for (let i = 0; i < 2; i++) {
    const g = await startGateway(["--nats", ctx.nats.url, "--store", storeSpec, "--base-url", "http://dl.example.test"], env);
    ctx.procs.push(g.proc);
    ctx.bases.push(g.base);
  }
});

s3.after(async (ctx) => {
  await Promise.all(ctx.procs.map((p) => p.stop()));
  await ctx.nats?.stop();
  await ctx.rgw?.stop();
  await rm(ctx.root, { recursive: true, force: true });
});

s3(`should never disagree and show each of ${publishes} publishes on both gateways within 2 s`, async (ctx) => {
  const bus = await connectNatsBus({ servers: [ctx.nats?.url ?? ""], name: "live-publish-s3-test" });
  const admin = createClient(ReleaseAdminService, createBusTransport({ bus, defaultTimeoutMs: 60000 }));
  const pollers = ctx.bases.map((b) => startPolling(b, "client", "mc"));
  try {
    const delays = await publishAll(ctx.root, pollers.map((p) => p.log), publishes, async (dir, id) => {
      const res = await admin.publishRelease({ product: "client", component: "mc", releaseId: id, sourceDir: dir });
      assert.ok(res.latestChanged);
    });
    await Promise.all(pollers.map((p) => p.stop()));
    check(pollers.map((p) => p.log), delays);
  } finally {
    await Promise.all(pollers.map((p) => p.stop()));
    await bus.close();
  }
});

s3.run();
