import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { Code, ConnectError } from "@connectrpc/connect";
import { AppError } from "../app-error.js";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createRestHandler, type RestHandlerOptions } from "./rest-handler.js";

interface Ctx {
  server: Server | undefined;
  base: string;
  logged: unknown[];
}

const rest = suite<Ctx>("rest handler", { server: undefined, base: "", logged: [] });

function options(logged: unknown[]): RestHandlerOptions {
  return {
    maxBodyBytes: 1024,
    onError: (err) => logged.push(err),
    routes: [
      { methods: ["GET"], pattern: "/v1/key/describe/:name", handle: (req) => ({ body: { name: req.params.name, v: req.query.get("version") } }) },
      { methods: ["POST"], pattern: "/v1/key/create/:name", readsBody: true, handle: (req) => ({ body: { got: req.json() } }) },
      { methods: ["GET"], pattern: "/files/*path", handle: (req) => ({ headers: { "content-type": "text/plain" }, body: Readable.from([`file ${req.params.path}`]) }) },
      { methods: ["GET"], pattern: "/boom", handle: () => { throw new Error("secret /etc/kms/root.key"); } },
      { methods: ["GET"], pattern: "/peer-boom", handle: () => { throw new ConnectError("parse binary: secret peer detail", Code.Internal); } },
      { methods: ["GET"], pattern: "/missing", handle: () => { throw new AppError("not_found", "key does not exist"); } },
    ],
  };
}

rest.before(async (ctx) => {
  const handler = createRestHandler(options(ctx.logged));
  ctx.server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => ctx.server?.listen(0, "127.0.0.1", resolve));
  ctx.base = `http://127.0.0.1:${(ctx.server.address() as AddressInfo).port}`;
});

rest.after((ctx) => {
  ctx.server?.close();
});

rest("should match params and decode them :: %2f stays in one segment", async ({ base }) => {
  const res = await fetch(`${base}/v1/key/describe/a%2Fb?version=2`);
  assert.equal(await res.json(), { name: "a/b", v: "2" });
  assert.is(res.headers.get("content-type"), "application/json; charset=utf-8");
});

rest("should answer HEAD like GET without a body", async ({ base }) => {
  const res = await fetch(`${base}/v1/key/describe/k`, { method: "HEAD" });
  assert.is(res.status, 200);
  assert.is(await res.text(), "");
  assert.ok(Number(res.headers.get("content-length")) > 0);
});

rest("should answer 405 with Allow :: wrong method", async ({ base }) => {
  const res = await fetch(`${base}/v1/key/create/k`, { method: "GET" });
  assert.is(res.status, 405);
  assert.is(res.headers.get("allow"), "POST");
  assert.equal(await res.json(), { code: 405, message: "method not allowed" });
});

rest("should refuse bodies over the limit and bad JSON", async ({ base }) => {
  const big = await fetch(`${base}/v1/key/create/k`, { method: "POST", body: "x".repeat(2000) });
  assert.is(big.status, 413);
  const bad = await fetch(`${base}/v1/key/create/k`, { method: "POST", body: "{nope" });
  assert.is(bad.status, 400);
  assert.equal(await bad.json(), { code: 400, message: "invalid request body" });
  const ok = await fetch(`${base}/v1/key/create/k`, { method: "POST", body: '{"a":1}' });
  assert.equal(await ok.json(), { got: { a: 1 } });
});

rest("should reject broken paths :: bad percent-encoding and NUL", async ({ base }) => {
  for (const path of ["/v1/key/describe/%zz", "/v1/key/describe/a%00b", "/files/x/%E0%A4%A"]) {
    const res = await fetch(`${base}${path}`);
    assert.is(res.status, 400, path);
  }
  const missing = await fetch(`${base}/nothing`);
  assert.is(missing.status, 404);
});

rest("should stream bodies and hide causes of unexpected errors", async ({ base, logged }) => {
  assert.is(await (await fetch(`${base}/files/a/b.txt`)).text(), "file a/b.txt");
  const boom = await fetch(`${base}/boom`);
  assert.is(boom.status, 500);
  const text = await boom.text();
  assert.not.match(text, "root.key");
  assert.equal(JSON.parse(text), { code: 500, message: "internal error" });
  assert.ok(logged.length > 0);
  // An internal error from a peer (a bus hop) keeps its text in the log only.
  const peer = await fetch(`${base}/peer-boom`);
  assert.equal([peer.status, await peer.json()], [500, { code: 500, message: "internal error" }]);
  const missing = await fetch(`${base}/missing`);
  assert.is(missing.status, 404);
  assert.equal(await missing.json(), { code: 404, message: "key does not exist" });
});

rest.run();
