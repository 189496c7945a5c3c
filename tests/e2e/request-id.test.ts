// One request followed across processes: the gateway and a releases instance
// on nats-server both log it (pino JSON) under the same reqId, which the
// gateway echoes in x-request-id (the caller's, or a fresh one).
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
  releases: Started | undefined;
  gateway: Started | undefined;
  base: string;
}

const ids = suite<Ctx>("request id across NATS hops", { root: "", nats: undefined, releases: undefined, gateway: undefined, base: "" });

ids.before(async (ctx) => {
  ctx.root = await mkdtemp(join(tmpdir(), "request-id-"));
  const storeDir = join(ctx.root, "store");
  await publishSampleCatalog(await createFsReleaseStore(storeDir), join(ctx.root, "minisign.key"));
  ctx.nats = await startNatsServer();
  ctx.releases = startProcess(process.execPath, [releasesBin, "serve", "--nats", ctx.nats.url, "--store", storeDir, "--base-url", "http://dl.example.test"]);
  const port = await freePort();
  ctx.base = `http://127.0.0.1:${port}`;
  ctx.gateway = startProcess(process.execPath, [gatewayBin, "--listen", `127.0.0.1:${port}`, "--nats", ctx.nats.url, "--store", storeDir, "--base-url", "http://dl.example.test"]);
  await waitFor(() => ctx.releases?.output().includes("releases ready"), { what: "releases ready", timeoutMs: 20000 });
  await waitFor(() => fetch(`${ctx.base}/healthz`).then((r) => r.ok, () => false), { what: "gateway up", timeoutMs: 20000 });
});

ids.after(async (ctx) => {
  await ctx.gateway?.stop();
  await ctx.releases?.stop();
  await ctx.nats?.stop();
  await rm(ctx.root, { recursive: true, force: true });
});

type Line = Record<string, unknown>;
const jsonLines = (text: string): Line[] =>
  text
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Line);

const linesWith = (proc: Started | undefined, reqId: string): Line[] => jsonLines(proc?.output() ?? "").filter((l) => l.reqId === reqId);

ids("should log one request under the caller's id in the gateway and in the releases service", async (ctx) => {
  const reqId = "trace-7f3a.1";
  const res = await fetch(`${ctx.base}/api/releases/client?limit=2`, { headers: { "x-request-id": reqId } });
  assert.is(res.status, 200);
  assert.is(res.headers.get("x-request-id"), reqId);
  const inGateway = await waitFor(() => linesWith(ctx.gateway, reqId).find((l) => l.msg === "request"), { what: "the gateway's line", timeoutMs: 5000 });
  assert.is(inGateway.status, 200);
  assert.is(inGateway.path, "/api/releases/client?limit=2");
  const inService = await waitFor(() => linesWith(ctx.releases, reqId).find((l) => l.msg === "rpc"), { what: "the service's line", timeoutMs: 5000 });
  assert.match(String(inService.rpc), /^releases\.v1\.ReleaseService\//);
  assert.is(inService.name, "releases");
});

ids("should give a request without an id (or with an unsafe one) a fresh id that reaches the service", async (ctx) => {
  // Each URL is new, so the gateway's cache cannot answer it without the service.
  for (const [i, sent] of [undefined, "bad id\twith spaces", "x".repeat(200)].entries()) {
    const res = await fetch(`${ctx.base}/api/releases/server?limit=${3 + i}`, { headers: sent === undefined ? {} : { "x-request-id": sent } });
    assert.is(res.status, 200);
    const reqId = res.headers.get("x-request-id") ?? "";
    assert.match(reqId, /^[0-9a-f-]{36}$/, "a UUID replaces a missing or unsafe id");
    assert.is.not(reqId, sent);
    await waitFor(() => linesWith(ctx.releases, reqId).some((l) => l.msg === "rpc"), { what: `the service's line for ${reqId}`, timeoutMs: 5000 });
  }
  // An error answer carries its id too, and nothing logs the unsafe text.
  const missing = await fetch(`${ctx.base}/api/releases/nope`, { headers: { "x-request-id": "err-1" } });
  assert.is(missing.headers.get("x-request-id"), "err-1");
  assert.not.ok((ctx.gateway?.output() ?? "").includes("with spaces"));
});

ids("should give every answer from the in-memory cache its own id and age, and nothing else of another request's", async (ctx) => {
  const url = `${ctx.base}/api/releases/client/latest`;
  // Uncompressed, so content-length can be checked against the body.
  const plain = { "accept-encoding": "identity" };
  const first = await fetch(url, { headers: { ...plain, "x-request-id": "warm-1" } });
  const body = await first.text();
  const seen: string[] = [];
  for (const sent of ["hot-1", undefined, "hot-2", undefined]) {
    const res = await fetch(url, { headers: sent === undefined ? plain : { ...plain, "x-request-id": sent } });
    assert.is(res.status, 200);
    assert.is(await res.text(), body);
    const reqId = res.headers.get("x-request-id") ?? "";
    if (sent === undefined) assert.match(reqId, /^[0-9a-f-]{36}$/);
    else assert.is(reqId, sent);
    assert.match(res.headers.get("age") ?? "", /^\d+$/);
    assert.is(res.headers.get("etag"), first.headers.get("etag"));
    assert.is(res.headers.get("content-length"), String(Buffer.byteLength(body)));
    seen.push(reqId);
  }
  assert.is(new Set(seen).size, seen.length, "no id is reused");
  const head = await fetch(url, { method: "HEAD", headers: { ...plain, "x-request-id": "hot-head" } });
  assert.is(head.headers.get("x-request-id"), "hot-head");
  assert.is(await head.text(), "");
});

ids.run();
