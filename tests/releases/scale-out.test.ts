import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createFsReleaseStore, publishSampleCatalog } from "@mc/releases";
import { freePort } from "../harness/free-port.js";
import { startNatsServer, type NatsNode } from "../harness/nats-server.js";
import { startProcess, type Started } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";

const releasesBin = fileURLToPath(new URL("../../services/releases/bin/releases.js", import.meta.url));
const gatewayBin = fileURLToPath(new URL("../../app/bin/gateway.js", import.meta.url));

interface Ctx {
  root: string;
  nats: NatsNode | undefined;
  releases: Started[];
  gateways: Array<{ proc: Started; base: string }>;
}

const scale = suite<Ctx>("scale-out over NATS", { root: "", nats: undefined, releases: [], gateways: [] });

scale.before(async (ctx) => {
  ctx.root = await mkdtemp(join(tmpdir(), "scale-out-"));
  const storeDir = join(ctx.root, "store");
  await publishSampleCatalog(await createFsReleaseStore(storeDir), join(ctx.root, "minisign.key"));
  ctx.nats = await startNatsServer();
  const url = ctx.nats.url;
  for (let i = 0; i < 2; i++) {
    const proc = startProcess(process.execPath, [releasesBin, "serve", "--nats", url, "--store", storeDir, "--base-url", "http://dl.example.test"]);
    ctx.releases.push(proc);
  }
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const proc = startProcess(process.execPath, [gatewayBin, "--listen", `127.0.0.1:${port}`, "--nats", url, "--store", storeDir, "--base-url", "http://dl.example.test"]);
    ctx.gateways.push({ proc, base: `http://127.0.0.1:${port}` });
  }
  for (const r of ctx.releases) await waitFor(() => r.output().includes("releases ready"), { what: `releases instance: ${r.output()}`, timeoutMs: 20000 });
  for (const g of ctx.gateways) await waitFor(() => fetch(`${g.base}/healthz`).then((r) => r.ok), { what: `gateway: ${g.proc.output()}`, timeoutMs: 20000 });
});

scale.after(async (ctx) => {
  await Promise.all([...ctx.gateways.map((g) => g.proc.stop()), ...ctx.releases.map((r) => r.stop())]);
  await ctx.nats?.stop();
  await rm(ctx.root, { recursive: true, force: true });
});

scale("should fail no request while one releases instance stops during a load loop", async (ctx) => {
  const variants = ["", "&os=linux", "&os=windows", "&arch=amd64", "&component=mc", "&os=linux&arch=arm64"];
  const urls: string[] = [];
  for (let limit = 1; limit <= 100; limit++) for (const v of variants) urls.push(`/api/releases/client?limit=${limit}${v}`);
  let next = 0;
  let ok = 0;
  const failures: string[] = [];
  let stopped: Promise<void> | undefined;
  const worker = async (w: number): Promise<void> => {
    for (;;) {
      const i = next++;
      const path = urls[i];
      if (path === undefined) return;
      if (i === Math.floor(urls.length / 3)) stopped = ctx.releases[0]?.stop(10000);
      const gateway = ctx.gateways[(i + w) % 2];
      const res = await fetch(`${gateway?.base}${path}`).catch((e: unknown) => ({ status: 0, text: () => Promise.resolve(String(e)) }));
      if (res.status === 200) ok += 1;
      else failures.push(`${path}: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
  await stopped;
  assert.equal(failures, []);
  assert.is(ok, urls.length);
  assert.is(ctx.releases[0]?.child.exitCode, 0, "the stopped instance did not drain cleanly");
  assert.is(ctx.releases[1]?.child.exitCode, null, "the other instance should still run");
});

scale.run();
