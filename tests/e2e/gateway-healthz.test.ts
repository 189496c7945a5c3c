import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { get as httpsGet } from "node:https";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { freePort } from "../harness/free-port.js";
import { startNatsServer, type NatsNode } from "../harness/nats-server.js";
import { startProcess, type Started } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";

const gatewayBin = fileURLToPath(new URL("../../app/bin/gateway.js", import.meta.url));

interface Ctx {
  dataDir: string;
  nats: NatsNode | undefined;
  running: Started[];
}

async function startGateway(ctx: Ctx, args: string[]): Promise<{ base: string; proc: Started }> {
  const port = await freePort();
  const kms = args.includes("--kms-listen") || args.includes("--nats") ? [] : ["--kms-listen", "off"];
  const proc = startProcess(process.execPath, [gatewayBin, "--listen", `127.0.0.1:${port}`, ...kms, ...args], {
    env: { ...process.env, DATA_DIR: ctx.dataDir },
  });
  ctx.running.push(proc);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(() => fetch(`${base}/healthz`).then((r) => r.ok), { what: `gateway on ${base}: ${proc.output()}`, timeoutMs: 60000 });
  return { base, proc };
}

/** Runs the gateway expecting it to exit; returns its exit code and output. */
async function runToExit(args: string[]): Promise<{ code: number | null; output: string }> {
  const proc = startProcess(process.execPath, [gatewayBin, ...args]);
  const code = await new Promise<number | null>((resolve) => proc.child.once("exit", (c) => resolve(c)));
  return { code, output: proc.output() };
}

const gw = suite<Ctx>("gateway /healthz", { dataDir: "", nats: undefined, running: [] });

gw.before(async (ctx) => {
  ctx.dataDir = await mkdtemp(join(tmpdir(), "gateway-data-"));
});

gw.after(async (ctx) => {
  await Promise.all(ctx.running.map((p) => p.stop()));
  await ctx.nats?.stop();
  await rm(ctx.dataDir, { recursive: true, force: true });
});

gw("should answer over the in-process bus :: embedded default", async (ctx) => {
  const kmsPort = await freePort();
  const { base, proc } = await startGateway(ctx, ["--kms-listen", `127.0.0.1:${kmsPort}`]);
  // The embedded KMS is up before the gateway port opens, and says its root key once.
  const ca = await readFile(join(ctx.dataDir, "kms-certs", "ca.crt"));
  const ready = await new Promise<string>((resolve, reject) => {
    httpsGet({ host: "127.0.0.1", port: kmsPort, path: "/v1/health/ready", ca }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve(body));
    }).on("error", reject);
  });
  assert.equal(JSON.parse(ready), { status: "ready", leader: true });
  assert.match(proc.output(), /root API key \(shown once, keep it\): k1:/);
  assert.is((await stat(join(ctx.dataDir, "kms-hsm.key"))).mode & 0o777, 0o600);
  const res = await fetch(`${base}/healthz`);
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), "application/json; charset=utf-8");
  const body = (await res.json()) as { status: string; bus: { kind: string; round_trip_ms: number } };
  assert.is(body.status, "ok");
  assert.is(body.bus.kind, "in-process");
  assert.type(body.bus.round_trip_ms, "number");
  assert.ok((await stat(ctx.dataDir)).isDirectory());
});

gw("should refuse other methods and unknown paths", async (ctx) => {
  const { base } = await startGateway(ctx, []);
  const post = await fetch(`${base}/healthz`, { method: "POST" });
  assert.is(post.status, 405);
  assert.is(post.headers.get("allow"), "GET, HEAD");
  const missing = await fetch(`${base}/nothing-here`);
  assert.is(missing.status, 404);
  assert.equal(await missing.json(), { code: 404, message: "not found" });
});

gw("should answer over a real nats-server :: --nats", async (ctx) => {
  ctx.nats = await startNatsServer();
  const { base } = await startGateway(ctx, ["--nats", ctx.nats.url, "--store", join(ctx.dataDir, "store")]);
  const body = (await (await fetch(`${base}/healthz`)).json()) as { bus: { kind: string } };
  assert.is(body.bus.kind, ctx.nats.url);
});

gw("should exit 1 with a clear message :: bad flag, bad --listen, port taken, NATS unreachable", async () => {
  const unknown = await runToExit(["--frobnicate"]);
  assert.is(unknown.code, 1);
  assert.match(unknown.output, "gateway: Unknown option '--frobnicate'");

  const badListen = await runToExit(["--listen", "nowhere"]);
  assert.is(badListen.code, 1);
  assert.match(badListen.output, "--listen must be HOST:PORT, got 'nowhere'");

  const port = await freePort();
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", resolve));
  // A data folder of its own and no KMS: the default KMS port (7373) and ./.data belong to
  // whatever runs beside this test (CI runs two at once), and either would fail the start first.
  const data = await mkdtemp(join(tmpdir(), "gateway-taken-"));
  try {
    const taken = await runToExit(["--listen", `127.0.0.1:${port}`, "--data-dir", data, "--kms-listen", "off"]);
    assert.is(taken.code, 1);
    assert.match(taken.output, `gateway: cannot listen on 127.0.0.1:${port}: address already in use`);
  } finally {
    blocker.close();
    await rm(data, { recursive: true, force: true });
  }

  const noStore = await runToExit(["--nats", "nats://127.0.0.1:4222"]);
  assert.is(noStore.code, 1);
  assert.match(noStore.output, "gateway: --store is required with --nats");

  const closed = await freePort();
  const noNats = await runToExit(["--nats", `nats://127.0.0.1:${closed}`, "--store", join(tmpdir(), "unused-store")]);
  assert.is(noNats.code, 1);
  assert.match(noNats.output, `gateway: cannot reach NATS at nats://127.0.0.1:${closed}`);
});

gw.run();
