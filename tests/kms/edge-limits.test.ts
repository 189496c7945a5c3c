import { readFile } from "node:fs/promises";
import { get as httpsGet } from "node:https";
import { join } from "node:path";
import { clientCertificateOf, newApiKey, parseApiKey } from "@mc/kms";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { rawRequest, uploadLargeBody, type RawTarget } from "../harness/raw-upload.js";
import { createAuditLog } from "../../services/kms/src/adapters/edge/audit.js";
import { mayChangeState } from "../../services/kms/src/adapters/edge/edge-limits.js";
import { startEdge } from "../../services/kms/src/adapters/edge/edge-server.js";
import { createKmsMetrics } from "../../services/kms/src/adapters/edge/metrics.js";
import { createRequestInfos } from "../../services/kms/src/adapters/edge/request-info.js";
import { writeServerCerts } from "../harness/tls-certs.js";
import { createFixture, runKms, type KmsFixture, type RunningKms } from "./kms-harness.js";

/**
 * Input hardening of the real `kms` process's TLS edge (contract §1, §5):
 * body limits enforced while reading and before authentication, bad input
 * is a 400 with the contract's message, and no input reaches a 500.
 */
interface Ctx {
  fx: KmsFixture | undefined;
  kms: RunningKms | undefined;
  ca: Buffer;
  root: { cert: string; key: string };
}
const limits = suite<Ctx>("kms edge input limits", { fx: undefined, kms: undefined, ca: Buffer.alloc(0), root: { cert: "", key: "" } });

limits.before(async (ctx) => {
  ctx.fx = await createFixture("software");
  ctx.kms = await runKms(ctx.fx, { KMS_HSM_KEY: "" });
  ctx.ca = await readFile(ctx.fx.certs.caFile);
  ctx.root = await clientCertificateOf(parseApiKey(ctx.kms.rootApiKey ?? "") ?? new Uint8Array(32));
});
limits.after(async (ctx) => {
  await ctx.kms?.proc.stop();
  await ctx.fx?.cleanup();
});

const MiB = 1024 * 1024;
const big = 256 * MiB;

function targets(ctx: Ctx): Array<[string, RawTarget]> {
  const port = ctx.fx?.port ?? 0;
  return [
    ["without a certificate", { port, tls: { ca: ctx.ca } }],
    ["with the root certificate", { port, tls: { ca: ctx.ca, cert: ctx.root.cert, key: ctx.root.key } }],
  ];
}

const pidOf = (ctx: Ctx): number => ctx.kms?.proc.child.pid ?? 0;

limits("should refuse a huge REST body with 413 while it streams, keep memory flat and close the connection", async (ctx) => {
  for (const [who, target] of targets(ctx)) {
    for (const declareLength of [false, true]) {
      const where = `${who}, ${declareLength ? "Content-Length" : "chunked"}`;
      const r = await uploadLargeBody(target, { path: "/v1/key/create/k", headers: { "content-type": "application/json" }, total: big, declareLength, pid: pidOf(ctx) });
      assert.is(r.status, 413, where);
      assert.equal(JSON.parse(r.body), { message: "request body too large" }, where);
      assert.ok(r.sentAtAnswer < 64 * MiB, `${where}: answered after ${r.sentAtAnswer} bytes`);
      assert.ok(r.closedByServer, `${where}: connection left open`);
      assert.ok(r.rssGrowth < 64 * MiB, `${where}: RSS grew ${r.rssGrowth} bytes`);
    }
  }
});

limits("should refuse a huge Connect body with 413 before reading it whole, keep memory flat and close the connection", async (ctx) => {
  for (const [who, target] of targets(ctx)) {
    for (const declareLength of [false, true]) {
      const where = `${who}, ${declareLength ? "Content-Length" : "chunked"}`;
      const r = await uploadLargeBody(target, { path: "/kms.v1.KeyService/Generate", headers: { "content-type": "application/proto" }, total: big, declareLength, pid: pidOf(ctx) });
      assert.is(r.status, 413, where);
      assert.is(JSON.parse(r.body).message, "request body too large", where);
      assert.ok(r.sentAtAnswer < 64 * MiB, `${where}: answered after ${r.sentAtAnswer} bytes`);
      assert.ok(r.closedByServer, `${where}: connection left open`);
      assert.ok(r.rssGrowth < 64 * MiB, `${where}: RSS grew ${r.rssGrowth} bytes`);
    }
  }
});

const connectPost = (path: string, type: string, body: Buffer): Buffer =>
  Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`, "latin1"), body]);

limits("should answer malformed protobuf and JSON on Connect with 400 invalid request body", async (ctx) => {
  const bodies: Array<[string, string, Buffer]> = [
    ["illegal wire type", "application/proto", Buffer.from([0x0f, 0x01])],
    ["truncated field", "application/proto", Buffer.from([0x0a, 0x05, 0x41])],
    ["overlong varint", "application/proto", Buffer.alloc(12, 0xff)],
    ["random bytes", "application/proto", Buffer.from("9c2f1e88a1ff03d7b6e45a0c11f2ee907d", "hex")],
    ["wrong JSON type", "application/json", Buffer.from('{"name": 5}')],
    ["not JSON", "application/json", Buffer.from("{")],
    ["broken envelope", "application/connect+proto", Buffer.from([0, 0, 0, 0, 9, 1])],
  ];
  for (const [who, target] of targets(ctx)) {
    for (const [what, type, body] of bodies) {
      const path = type.startsWith("application/connect") ? "/kms.v1.AuditService/WatchAuditLog" : "/kms.v1.KeyService/Generate";
      const r = await rawRequest(target, connectPost(path, type, body));
      assert.is(r.status, 400, `${who}, ${what}: ${r.body}`);
      assert.equal(JSON.parse(r.body), { code: "invalid_argument", message: "invalid request body" }, `${who}, ${what}`);
    }
  }
});

limits("should name a bad query parameter", async ({ kms }) => {
  if (!kms) throw new Error("no server");
  const client = await kms.client();
  await client.createKey("q");
  for (const [method, path, name] of [
    ["GET", "/v1/key/describe/q?version=abc", "version"],
    ["GET", "/v1/key/describe/q?version=-1", "version"],
    ["DELETE", "/v1/key/delete/q?version=99999999999", "version"],
    ["GET", "/v1/key/list/*?limit=ten", "limit"],
  ] as const) {
    const res = await client.send(method, path);
    assert.is(res.status, 400, path);
    assert.equal(JSON.parse(res.body.toString()), { message: `invalid query parameter '${name}'` }, path);
  }
  client.close();
});

limits("should answer a Connect request with a bad or missing Host with 400 and keep serving", async (ctx) => {
  const [[, target]] = targets(ctx) as [[string, RawTarget]];
  const requests = [
    "POST /kms.v1.HealthService/CheckLiveness HTTP/1.1\r\nHost: a b\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    "POST /kms.v1.HealthService/CheckLiveness HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
  ];
  for (const text of requests) {
    const r = await rawRequest(target, text);
    assert.is(r.status, 400, `${text.split("\r\n")[0] ?? ""}: ${r.body}`);
    assert.is(JSON.parse(r.body).code, "invalid_argument");
  }
  assert.is(ctx.kms?.proc.child.exitCode, null, "the server is still running");
  const ok = await rawRequest(target, "GET /v1/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  assert.is(ok.status, 200);
});

limits("should refuse two unrelated leaf certificates in one handshake on Connect too", async (ctx) => {
  const other = await clientCertificateOf(parseApiKey(newApiKey()) ?? new Uint8Array(32));
  const target: RawTarget = { port: ctx.fx?.port ?? 0, tls: { ca: ctx.ca, cert: ctx.root.cert + other.cert, key: ctx.root.key } };
  const r = await rawRequest(target, connectPost("/kms.v1.ClusterService/GetStatus", "application/json", Buffer.from("{}")));
  assert.is(r.status, 400, r.body);
  assert.equal(JSON.parse(r.body), { code: "invalid_argument", message: "tls: received more than one client certificate" });
});

type EdgeRoute = Parameters<typeof startEdge>[0]["routes"][number];

/** The edge itself, over real TLS, with a 1 s limit instead of 15 s so the tests stay fast. */
async function withShortLimitEdge(ctx: Ctx, name: string, route: EdgeRoute, use: (port: number, ca: Buffer) => Promise<void>): Promise<void> {
  const certs = await writeServerCerts(join(ctx.fx?.dir ?? "", name));
  const audit = createAuditLog("off");
  const edge = await startEdge({
    host: "127.0.0.1",
    port: 0,
    tls: { cert: certs.certFile, key: certs.keyFile, ca: undefined },
    infoOf: createRequestInfos(false),
    routes: [route],
    connect: undefined,
    metrics: createKmsMetrics(() => 0n),
    audit,
    log: () => undefined,
    requestTimeoutMs: 1000,
  });
  try {
    await use(edge.port, await readFile(certs.caFile));
  } finally {
    await edge.close();
    await audit.close();
  }
}

limits("should answer a body that stalls past the request timeout with 504 and close the connection", async (ctx) => {
  const echo: EdgeRoute = { methods: ["POST"], pattern: "/v1/echo", readsBody: true, handle: (req) => ({ body: { size: req.body.byteLength } }) };
  await withShortLimitEdge(ctx, "timeout-certs", echo, async (port, ca) => {
    const target: RawTarget = { port, tls: { ca } };
    const started = Date.now();
    const r = await uploadLargeBody(target, { path: "/v1/echo", total: 100, declareLength: false, timeoutMs: 10_000, closeWaitMs: 1000, stallAfter: 10 });
    assert.is(r.status, 504, r.body);
    // A POST may change state: a timeout leaves its outcome unknown, and the answer says so (issue 27).
    assert.equal(JSON.parse(r.body), { message: "outcome unknown: the change may have been applied; retry with the same request id" });
    assert.ok(Date.now() - started < 5000);
    assert.ok(r.closedByServer, "connection left open after the 504");
  });
});

// The audit log is a stream that lives as long as its subscriber: the request limit must not cut it.
limits("should not cut an answer that is already streaming when the request timeout passes", async (ctx) => {
  const ticks = (async function* () {
    for (let i = 0; i < 8; i++) {
      await new Promise((r) => setTimeout(r, 300));
      yield new TextEncoder().encode(`tick ${i}\n`);
    }
  })();
  const route: EdgeRoute = { methods: ["GET"], pattern: "/v1/ticks", readsBody: false, handle: () => ({ headers: { "content-type": "application/x-ndjson" }, stream: ticks }) };
  await withShortLimitEdge(ctx, "stream-certs", route, async (port, ca) => {
    const r = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpsGet({ host: "127.0.0.1", port, path: "/v1/ticks", ca, servername: "localhost" }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", reject);
      });
      req.on("error", reject);
    });
    assert.is(r.status, 200, r.body);
    assert.match(r.body, /tick 7/, "the stream ran past the 1 s limit to its end");
  });
});

limits("should tell a timed-out request that may change state that its outcome is unknown, and no other", () => {
  for (const [method, path] of [["POST", "/v1/key/create/k"], ["DELETE", "/v1/key/delete/k"], ["PUT", "/v1/policy/assign/p"], ["POST", "/v1/cluster/add"], ["POST", "/kms.v1.KeyService/CreateKey"], ["POST", "/kms.v1.ClusterService/TransferLeadership"]]) {
    assert.ok(mayChangeState(method, path ?? ""), `${method} ${path}`);
  }
  for (const [method, path] of [["GET", "/v1/key/describe/k"], ["POST", "/v1/key/decrypt/k"], ["POST", "/v1/key/generate/k"], ["POST", "/kms.v1.KeyService/DescribeKey"], ["POST", "/kms.v1.KeyService/Decrypt"]]) {
    assert.not.ok(mayChangeState(method, path ?? ""), `${method} ${path}`);
  }
});

limits.run();
