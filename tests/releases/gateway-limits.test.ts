import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { freePort } from "../harness/free-port.js";
import { startProcess, type Started } from "../harness/processes.js";
import { rawRequest, uploadLargeBody, type RawTarget } from "../harness/raw-upload.js";
import { waitFor } from "../harness/wait-for.js";

/**
 * Input hardening of the real gateway process: bodies are limited while
 * they are read (before the Connect endpoint or a route sees them), bad
 * input is a 400, and no input reaches a 500 or stops the process.
 */
const gatewayBin = fileURLToPath(new URL("../../app/bin/gateway.js", import.meta.url));

interface Ctx {
  dataDir: string;
  proc: Started | undefined;
  port: number;
}
const limits = suite<Ctx>("gateway input limits", { dataDir: "", proc: undefined, port: 0 });

limits.before(async (ctx) => {
  ctx.dataDir = await mkdtemp(join(tmpdir(), "gateway-limits-"));
  ctx.port = await freePort();
  ctx.proc = startProcess(process.execPath, [gatewayBin, "--listen", `127.0.0.1:${ctx.port}`, "--kms-listen", "off"], { env: { ...process.env, DATA_DIR: ctx.dataDir } });
  await waitFor(() => fetch(`http://127.0.0.1:${ctx.port}/healthz`).then((r) => r.ok), { what: "gateway ready", timeoutMs: 30000 });
});
limits.after(async (ctx) => {
  await ctx.proc?.stop();
  await rm(ctx.dataDir, { recursive: true, force: true });
});

const MiB = 1024 * 1024;
const listReleases = "/releases.v1.ReleaseService/ListReleases";

limits("should refuse a huge Connect body with 413 while it streams, keep memory flat and close the connection", async (ctx) => {
  const target: RawTarget = { port: ctx.port };
  for (const declareLength of [false, true]) {
    const where = declareLength ? "Content-Length" : "chunked";
    const r = await uploadLargeBody(target, { path: listReleases, headers: { "content-type": "application/proto" }, total: 256 * MiB, declareLength, pid: ctx.proc?.child.pid ?? 0 });
    assert.is(r.status, 413, `${where}: ${r.body}`);
    assert.equal(JSON.parse(r.body), { code: "resource_exhausted", message: "request body too large" }, where);
    assert.ok(r.sentAtAnswer < 16 * MiB, `${where}: answered after ${r.sentAtAnswer} bytes`);
    assert.ok(r.closedByServer, `${where}: connection left open`);
    assert.ok(r.rssGrowth < 64 * MiB, `${where}: RSS grew ${r.rssGrowth} bytes`);
  }
});

limits("should refuse a huge body on a REST route with 413 and close the connection", async (ctx) => {
  for (const declareLength of [false, true]) {
    const r = await uploadLargeBody({ port: ctx.port }, { path: "/api/releases/client", total: 64 * MiB, declareLength, pid: ctx.proc?.child.pid ?? 0 });
    assert.is(r.status, 413, r.body);
    assert.equal(JSON.parse(r.body), { code: 413, message: "request body too large" });
    assert.ok(r.sentAtAnswer < 16 * MiB, `answered after ${r.sentAtAnswer} bytes`);
    assert.ok(r.closedByServer, "connection left open");
  }
});

const post = (path: string, type: string, body: Buffer, host = "Host: 127.0.0.1\r\n", version = "1.1"): Buffer =>
  Buffer.concat([Buffer.from(`POST ${path} HTTP/${version}\r\n${host}Content-Type: ${type}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`, "latin1"), body]);

limits("should answer malformed protobuf and JSON on the Connect endpoint with 400", async (ctx) => {
  const bodies: Array<[string, string, Buffer]> = [
    ["illegal wire type", "application/proto", Buffer.from([0x0f, 0x01])],
    ["truncated field", "application/proto", Buffer.from([0x0a, 0x05, 0x41])],
    ["random bytes", "application/proto", Buffer.from("9c2f1e88a1ff03d7b6e45a0c11f2ee907d", "hex")],
    ["wrong JSON type", "application/json", Buffer.from('{"product": 5}')],
    ["not JSON", "application/json", Buffer.from("{")],
  ];
  for (const [what, type, body] of bodies) {
    const r = await rawRequest({ port: ctx.port }, post(listReleases, type, body));
    assert.is(r.status, 400, `${what}: ${r.body}`);
    assert.equal(JSON.parse(r.body), { code: "invalid_argument", message: "invalid request body" }, what);
  }
  const ok = await rawRequest({ port: ctx.port }, post(listReleases, "application/json", Buffer.from('{"product":"client"}')));
  assert.is(ok.status, 200, ok.body);
});

limits("should answer a Connect request with a bad or missing Host with 400 and keep serving", async (ctx) => {
  const body = Buffer.from('{"product":"client"}');
  for (const r of [
    await rawRequest({ port: ctx.port }, post(listReleases, "application/json", body, "Host: a b\r\n")),
    await rawRequest({ port: ctx.port }, post(listReleases, "application/json", body, "", "1.0")),
  ]) {
    assert.is(r.status, 400, r.body);
    assert.is(JSON.parse(r.body).code, "invalid_argument");
  }
  assert.is(ctx.proc?.child.exitCode, null, "the gateway is still running");
  assert.is((await fetch(`http://127.0.0.1:${ctx.port}/healthz`)).status, 200);
});

limits.run();
