// Exactly-once writes on a real server: a write repeated with its request id
// (`kms-request-id`) is answered with its first outcome over REST and
// Connect, before and after a restart; a new request still conflicts.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { clientCertificateOf, createKmsClient, parseApiKey, type KmsClient } from "@mc/kms";
import { requestIdPattern } from "../../services/kms/src/domain/sessions.js";
import { KeyService } from "@mc/kms/gen/kms/v1/key_pb.js";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { runMc } from "../mc/mc-runner.js";
import { createFixture, runKms, type KmsFixture, type RunningKms } from "./kms-harness.js";
import { startRecordingProxy } from "./request-ids-proxy.js";

const ids = suite<{ fx: KmsFixture | undefined; kms: RunningKms | undefined }>("kms request ids (exactly-once writes)", { fx: undefined, kms: undefined });
const env = { KMS_HSM_KEY: "" };

ids.before(async (ctx) => {
  ctx.fx = await createFixture();
  ctx.kms = await runKms(ctx.fx, env);
});
ids.after(async (ctx) => {
  await ctx.kms?.proc.stop();
  await ctx.fx?.cleanup();
});

const answer = async (c: KmsClient, method: string, path: string, id?: string, body: unknown = {}) => {
  const res = await c.send(method, path, body, id === undefined ? {} : { "kms-request-id": id });
  return [res.status, res.body.toString()] as const;
};

ids("a create repeated with its request id answers success again; a new request conflicts", async ({ kms }) => {
  const c = await kms?.client();
  if (!c) throw new Error("no server");
  assert.equal(await answer(c, "POST", "/v1/key/create/once", "req-1"), [200, ""]);
  assert.equal(await answer(c, "POST", "/v1/key/create/once", "req-1"), [200, ""]);
  assert.equal(await answer(c, "POST", "/v1/key/create/once", "req-2"), [409, '{"message":"key already exists"}']);
  assert.equal(await answer(c, "POST", "/v1/key/create/once"), [409, '{"message":"key already exists"}']);
  // A repeated add-version adds one version.
  assert.equal((await answer(c, "POST", "/v1/key/create/once", "v2", { add_version: true }))[0], 200);
  assert.equal((await answer(c, "POST", "/v1/key/create/once", "v2", { add_version: true }))[0], 200);
  assert.equal((await c.call<{ versions: number[] }>("GET", "/v1/key/describe/once")).versions, [1, 2]);
  c.close();
});

ids("a delete repeated after it applied answers success, not 'key does not exist'", async ({ kms }) => {
  const c = await kms?.client();
  if (!c) throw new Error("no server");
  await c.call("POST", "/v1/key/create/gone", {});
  assert.equal(await answer(c, "DELETE", "/v1/key/delete/gone", "del-1", undefined), [200, ""]);
  assert.equal(await answer(c, "DELETE", "/v1/key/delete/gone", "del-1", undefined), [200, ""]);
  assert.equal(await answer(c, "DELETE", "/v1/key/delete/gone", "del-2", undefined), [404, '{"message":"key does not exist"}']);
  c.close();
});

ids("a bad or reused request id is one clear 400", async ({ kms }) => {
  const c = await kms?.client();
  if (!c) throw new Error("no server");
  for (const bad of ["has space", "x".repeat(129), "semi;colon", "é"]) {
    assert.equal(await answer(c, "POST", "/v1/key/create/bad-id", encodeURI(bad) === bad ? bad : encodeURI(bad)), [400, `{"message":"invalid header 'kms-request-id'"}`], bad);
  }
  assert.equal(await answer(c, "POST", "/v1/key/create/first", "reused"), [200, ""]);
  assert.equal(await answer(c, "POST", "/v1/key/create/second", "reused"), [400, '{"message":"request id was already used for a different request"}']);
  assert.equal((await c.send("GET", "/v1/key/describe/second")).status, 404, "the second write did not happen");
  c.close();
});

ids("Connect honours the same header", async ({ fx, kms }) => {
  const cert = await clientCertificateOf(parseApiKey(kms?.rootApiKey ?? "") ?? new Uint8Array(32));
  const ca = await readFile(fx?.certs.caFile ?? "");
  const keys = createClient(KeyService, createConnectTransport({ baseUrl: `https://127.0.0.1:${fx?.port}`, httpVersion: "1.1", nodeOptions: { ca, cert: cert.cert, key: cert.key } }));
  const headers = { "kms-request-id": "rpc-1" };
  assert.is((await keys.createKey({ name: "rpc-once" }, { headers })).version, 1);
  assert.is((await keys.createKey({ name: "rpc-once" }, { headers })).version, 1);
  try {
    await keys.createKey({ name: "rpc-once" }, { headers: { "kms-request-id": "rpc-2" } });
    assert.unreachable("a new request for an existing key succeeded");
  } catch (err) {
    assert.is(ConnectError.from(err).code, Code.AlreadyExists);
  }
});

ids("the client library sends a kms-request-id and reuses it when the first answer is lost after the write applied", async ({ fx, kms }) => {
  const proxy = await startRecordingProxy({ port: fx?.port ?? 0, ca: await readFile(fx?.certs.caFile ?? ""), apiKey: kms?.rootApiKey ?? "" });
  const c = await createKmsClient({ server: `127.0.0.1:${proxy.port}`, ca: proxy.ca, apiKey: kms?.rootApiKey ?? "" });
  try {
    proxy.cutAfterApply.add("/v1/key/create/lib-lost");
    await c.createKey("lib-lost");
    const attempts = proxy.seen.filter((r) => r.path === "/v1/key/create/lib-lost");
    assert.equal(attempts.map((r) => r.status), [200, 200], "applied on the first attempt, answered from the session table on the retry");
    assert.ok(attempts[0]?.id !== undefined && requestIdPattern.test(attempts[0].id), `a valid id: ${String(attempts[0]?.id)}`);
    assert.is(attempts[1]?.id, attempts[0]?.id, "the retry carries the same id");
    assert.equal((await c.call<{ versions: number[] }>("GET", "/v1/key/describe/lib-lost")).versions, [1], "created once");
  } finally {
    c.close();
    await proxy.close();
  }
});

ids("mc admin kms key create sends a kms-request-id and reuses it, so a lost answer does not turn into 'already exists'", async ({ fx, kms }) => {
  const apiKey = kms?.rootApiKey ?? "";
  const proxy = await startRecordingProxy({ port: fx?.port ?? 0, ca: await readFile(fx?.certs.caFile ?? ""), apiKey });
  const configDir = join(fx?.dir ?? "", "mc");
  const mc = (...args: string[]) => runMc(["-C", configDir, ...args]);
  try {
    const set = await mc("alias", "set", "viaproxy", `https://127.0.0.1:${proxy.port}`, "--api-key", apiKey);
    assert.is(set.code, 0, set.stderr);
    await mkdir(join(configDir, "certs", "CAs"), { recursive: true });
    await writeFile(join(configDir, "certs", "CAs", "proxy.crt"), proxy.ca);
    proxy.cutAfterApply.add("/v1/key/create/mc-lost");
    const created = await mc("admin", "kms", "key", "create", "viaproxy", "mc-lost");
    assert.is(created.code, 0, created.stderr);
    assert.is(created.stdout, "Created master key `mc-lost` successfully\n");
    const attempts = proxy.seen.filter((r) => r.path === "/v1/key/create/mc-lost");
    assert.equal(attempts.map((r) => r.status), [200, 200]);
    assert.ok(attempts[0]?.id !== undefined && requestIdPattern.test(attempts[0].id), `a valid id: ${String(attempts[0]?.id)}`);
    assert.is(attempts[1]?.id, attempts[0]?.id, "the retry carries the same id");
    // A second command is a new write: a new id, and the key now exists.
    const again = await mc("admin", "kms", "key", "create", "viaproxy", "mc-lost");
    assert.is(again.code, 1);
    assert.match(again.stderr, /key already exists/);
    assert.ok(proxy.seen.at(-1)?.id !== attempts[0]?.id, "a new command draws a new id");
  } finally {
    await proxy.close();
  }
});

ids("the session table survives a restart, through the log and through a snapshot", async (ctx) => {
  if (!ctx.fx || !ctx.kms) throw new Error("no server");
  const rootKey = ctx.kms.rootApiKey ?? "";
  let c = await ctx.kms.client();
  assert.equal(await answer(c, "POST", "/v1/key/create/durable", "keep-1"), [200, ""]);
  // More writes than the single node's snapshot interval (1,000), so the record is also in a snapshot.
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < 1100; i++) pending.push(c.call("POST", `/v1/key/create/fill-${i}`, {}));
  await Promise.all(pending);
  c.close();
  await ctx.kms.proc.stop();
  ctx.kms = await runKms(ctx.fx, env);
  c = await ctx.kms.client(rootKey);
  assert.equal(await answer(c, "POST", "/v1/key/create/durable", "keep-1"), [200, ""]);
  assert.equal(await answer(c, "POST", "/v1/key/create/durable", "keep-2"), [409, '{"message":"key already exists"}']);
  c.close();
});

ids.run();
