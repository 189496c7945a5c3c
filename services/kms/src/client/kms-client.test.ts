import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { newApiKey } from "../adapters/tls/api-key.js";
import { createDevCa } from "../adapters/tls/dev-certs.js";
import { createKmsClient, KmsClientError, outcomeUnknownMessage, type KmsClient } from "./kms-client.js";

/** What the scripted server does with one request: answer a status with a message, or cut the connection. */
type Step = { readonly status: number; readonly message: string } | "cut";

interface Ctx {
  server: Server | undefined;
  ca: string;
  /** The answers still to give, in order; past the end every request gets 200. */
  script: Step[];
  /** Method, path and `kms-request-id` of every request seen. */
  seen: { method: string; path: string; id: string | undefined }[];
}

const test = suite<Ctx>("kms client: retries, request ids, honest final answers", { server: undefined, ca: "", script: [], seen: [] });

test.before(async (ctx) => {
  const ca = await createDevCa("kms client test CA");
  const pair = await ca.issueServer(["127.0.0.1"]);
  ctx.ca = ca.cert;
  ctx.server = createServer({ cert: pair.cert, key: pair.key }, (req, res) => {
    const id = req.headers["kms-request-id"];
    ctx.seen.push({ method: req.method ?? "", path: req.url ?? "", id: typeof id === "string" ? id : undefined });
    req.resume();
    const step = ctx.script.shift() ?? { status: 200, message: "" };
    if (step === "cut") {
      req.socket.destroy();
      return;
    }
    res.writeHead(step.status, { "content-type": "application/json" });
    res.end(step.status === 200 ? "" : JSON.stringify({ message: step.message }));
  });
  await new Promise<void>((resolve) => ctx.server?.listen(0, "127.0.0.1", resolve));
});

test.after(async (ctx) => {
  await new Promise((resolve) => ctx.server?.close(resolve));
});

test.before.each((ctx) => {
  ctx.script = [];
  ctx.seen = [];
});

const noLeader = { status: 503, message: "cluster has no leader" };
const unknown = { status: 504, message: outcomeUnknownMessage };

async function client(ctx: Ctx): Promise<KmsClient> {
  const port = (ctx.server?.address() as AddressInfo).port;
  return createKmsClient({ server: `127.0.0.1:${port}`, ca: ctx.ca, apiKey: newApiKey() });
}

async function failure(work: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await work;
  } catch (err) {
    if (err instanceof KmsClientError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error("the call succeeded");
}

test("a write whose earlier attempt may have applied ends 504 'outcome unknown', never a later attempt's 503", async (ctx) => {
  const c = await client(ctx);
  try {
    ctx.script = [unknown, noLeader, noLeader];
    assert.equal(await failure(c.createKey("k1")), unknown);
    assert.is(ctx.seen.length, 3, "three attempts");
    // A cut connection is as unknown as a 504.
    ctx.script = ["cut", noLeader, noLeader];
    assert.equal(await failure(c.createKey("k2")), unknown);
    // Another 5xx, too: the server may have applied the write before it failed.
    ctx.script = [{ status: 500, message: "internal error" }, noLeader, noLeader];
    assert.equal(await failure(c.createKey("k3")), unknown);
  } finally {
    c.close();
  }
});

test("503 stays 503 when every attempt was refused, and for reads", async (ctx) => {
  const c = await client(ctx);
  try {
    ctx.script = [noLeader, noLeader, noLeader];
    assert.equal(await failure(c.createKey("k4")), noLeader);
    ctx.script = [unknown, noLeader, noLeader];
    assert.equal(await failure(c.call("GET", "/v1/key/describe/k4")), noLeader, "a read applies nothing");
  } finally {
    c.close();
  }
});

test("every attempt of one write carries the same kms-request-id; each write its own; reads none", async (ctx) => {
  const c = await client(ctx);
  try {
    ctx.script = ["cut", noLeader];
    await c.createKey("k5");
    ctx.script = [unknown];
    await c.createKey("k6");
    await c.call("GET", "/v1/key/describe/k6");
    const ids = ctx.seen.map((s) => s.id);
    assert.is(ctx.seen.length, 6, ctx.seen.map((s) => `${s.method} ${s.path}`).join(", "));
    const [a, b, d, e, f, read] = ids;
    assert.ok(a !== undefined && /^[A-Za-z0-9._:+/=-]{1,128}$/.test(a), `a valid request id: ${String(a)}`);
    assert.equal([b, d], [a, a], "the three attempts of the first create share one id");
    assert.ok(e !== undefined && e !== a, "the next write draws a new id");
    assert.is(f, e, "and reuses it on its retry");
    assert.is(read, undefined);
  } finally {
    c.close();
  }
});

test.run();
