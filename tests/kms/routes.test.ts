import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { request } from "node:https";
import { identityOfSeed, newApiKey, parseApiKey, type KmsClient } from "@mc/kms";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitFor } from "../harness/wait-for.js";
import { createFixture, runKms, type KmsFixture, type RunningKms } from "./kms-harness.js";

interface Ctx {
  fx: KmsFixture | undefined;
  kms: RunningKms | undefined;
  root: KmsClient | undefined;
}
const routes = suite<Ctx>("kms routes (contract §4, §5)", { fx: undefined, kms: undefined, root: undefined });

routes.before(async (ctx) => {
  ctx.fx = await createFixture();
  ctx.kms = await runKms(ctx.fx, { KMS_HSM_KEY: "" });
  ctx.root = await ctx.kms.client();
});
routes.after(async (ctx) => {
  ctx.root?.close();
  await ctx.kms?.proc.stop();
  await ctx.fx?.cleanup();
});

type Answer = { status: number; json: unknown; allow: string | undefined };
async function call(c: KmsClient | undefined, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  if (!c) throw new Error("no client");
  const res = await c.send(method, path, body, headers);
  const text = res.body.toString();
  return { status: res.status, json: text === "" ? undefined : JSON.parse(text), allow: res.headers.allow as string | undefined };
}
const err = (status: number, message: string) => ({ status, json: { message } });
const pick = (a: Answer) => ({ status: a.status, json: a.json });
const b64 = (s: string) => Buffer.from(s).toString("base64");

routes("should create, describe, list and delete keys", async ({ root }) => {
  assert.equal(pick(await call(root, "POST", "/v1/key/create/app-1", {})), { status: 200, json: undefined });
  assert.equal(pick(await call(root, "PUT", "/v1/key/create/app-2")), { status: 200, json: undefined });
  assert.equal(pick(await call(root, "POST", "/v1/key/create/app-1", {})), err(409, "key already exists"));
  assert.equal(pick(await call(root, "POST", "/v1/key/create/app-1", { algorithm: "AES-256" })), err(400, "algorithm 'AES-256' is not supported"));
  for (const bad of ["..", "a%2fb", "-a", "_", "a".repeat(81), "a%20b"]) {
    const name = decodeURIComponent(bad);
    assert.equal(pick(await call(root, "POST", `/v1/key/create/${bad}`, {})), err(400, `key name '${name}' is empty, too long or contains invalid characters`), bad);
  }
  const d = (await call(root, "GET", "/v1/key/describe/app-1")).json as Record<string, unknown>;
  assert.equal({ ...d, created_at: "", created_by: "" }, { name: "app-1", version: 1, versions: [1], algorithm: "XCHACHA20-POLY1305", created_at: "", created_by: "" });
  assert.match(String(d.created_at), /^\d{4}-\d\d-\d\dT/);
  assert.is(d.created_by, root?.identity);
  assert.equal(pick(await call(root, "GET", "/v1/key/describe/nope")), err(404, "key does not exist"));
  assert.equal((await call(root, "GET", "/v1/key/list/*")).json, { names: ["app-1", "app-2"], continue_at: "" });
  assert.equal((await call(root, "GET", "/v1/key/list/app-2")).json, { names: ["app-2"], continue_at: "" });
  assert.equal((await call(root, "GET", "/v1/key/list/*?limit=1")).json, { names: ["app-1"], continue_at: "app-2" });
  assert.equal(pick(await call(root, "DELETE", "/v1/key/delete/app-2")), { status: 200, json: undefined });
  assert.equal(pick(await call(root, "DELETE", "/v1/key/delete/app-2")), err(404, "key does not exist"));
});

routes("should let exactly one of racing creations win", async ({ root }) => {
  const answers = await Promise.all(Array.from({ length: 12 }, () => call(root, "POST", "/v1/key/create/race", {})));
  assert.equal(answers.map((a) => a.status).sort(), [200, ...Array<number>(11).fill(409)]);
  const rotations = await Promise.all(Array.from({ length: 5 }, () => call(root, "POST", "/v1/key/create/race", { add_version: true })));
  assert.ok(rotations.every((r) => r.status === 200));
  assert.equal(((await call(root, "GET", "/v1/key/describe/race")).json as { versions: number[] }).versions, [1, 2, 3, 4, 5, 6]);
  const head = await root?.send("HEAD", "/v1/key/describe/race");
  assert.equal([head?.status, head?.body.length], [200, 0]);
  assert.equal(pick(await call(root, "GET", "/v1/key/describe/race?version=abc")), err(400, "invalid query parameter 'version'"));
});

routes("should rotate keys and decrypt old ciphertexts with their version", async ({ root }) => {
  await call(root, "POST", "/v1/key/create/rot", {});
  const v1 = (await call(root, "POST", "/v1/key/encrypt/rot", { plaintext: b64("one") })).json as { ciphertext: string; version: number };
  assert.is(v1.version, 1);
  assert.equal(pick(await call(root, "POST", "/v1/key/create/rot", { add_version: true })), { status: 200, json: undefined });
  assert.equal(pick(await call(root, "POST", "/v1/key/create/missing", { add_version: true })), err(404, "key does not exist"));
  const v2 = (await call(root, "POST", "/v1/key/encrypt/rot", { plaintext: b64("two") })).json as { ciphertext: string; version: number };
  assert.is(v2.version, 2);
  assert.equal((await call(root, "POST", "/v1/key/decrypt/rot", { ciphertext: v1.ciphertext })).json, { plaintext: b64("one"), version: 1 });
  assert.equal((await call(root, "POST", "/v1/key/decrypt/rot", { ciphertext: v2.ciphertext })).json, { plaintext: b64("two"), version: 2 });
  const d = (await call(root, "GET", "/v1/key/describe/rot")).json as { version: number; versions: number[] };
  assert.equal([d.version, d.versions], [2, [1, 2]]);
  assert.is(((await call(root, "GET", "/v1/key/describe/rot?version=1")).json as { version: number }).version, 1);
  assert.equal(pick(await call(root, "GET", "/v1/key/describe/rot?version=9")), err(404, "key version does not exist"));
  assert.equal(pick(await call(root, "DELETE", "/v1/key/delete/rot?version=9")), err(404, "key version does not exist"));
  await call(root, "DELETE", "/v1/key/delete/rot?version=1");
  assert.equal(pick(await call(root, "POST", "/v1/key/decrypt/rot", { ciphertext: v1.ciphertext })), err(400, "decryption failed: ciphertext is not authentic"));
  await call(root, "DELETE", "/v1/key/delete/rot?version=2");
  assert.equal(pick(await call(root, "GET", "/v1/key/describe/rot")), err(404, "key does not exist"));
});

routes("should generate, encrypt, decrypt and hmac with context binding", async ({ root }) => {
  await call(root, "POST", "/v1/key/create/crypto", {});
  const ctx = b64("bucket/object");
  const g = (await call(root, "POST", "/v1/key/generate/crypto", { context: ctx })).json as { plaintext: string; ciphertext: string; version: number };
  assert.is(Buffer.from(g.plaintext, "base64").length, 32);
  assert.is(Buffer.from(g.ciphertext, "base64").length, 1 + 4 + 24 + 32 + 16);
  assert.equal((await call(root, "POST", "/v1/key/decrypt/crypto", { ciphertext: g.ciphertext, context: ctx })).json, { plaintext: g.plaintext, version: 1 });
  const wrong = err(400, "decryption failed: ciphertext is not authentic");
  assert.equal(pick(await call(root, "POST", "/v1/key/decrypt/crypto", { ciphertext: g.ciphertext, context: b64("other") })), wrong);
  assert.equal(pick(await call(root, "POST", "/v1/key/decrypt/crypto", { ciphertext: g.ciphertext })), wrong);
  assert.equal(pick(await call(root, "POST", "/v1/key/decrypt/crypto", { ciphertext: b64("short") })), wrong);
  assert.is(Buffer.from(((await call(root, "POST", "/v1/key/generate/crypto", { length: 64 })).json as { plaintext: string }).plaintext, "base64").length, 64);
  assert.equal(pick(await call(root, "POST", "/v1/key/generate/crypto", { length: 2000 })), err(400, "invalid request body"));
  const noBody = await call(root, "POST", "/v1/key/generate/crypto");
  assert.is(noBody.status, 200, "the generate body is optional");
  assert.is(Buffer.from((noBody.json as { plaintext: string }).plaintext, "base64").length, 32);
  const h1 = (await call(root, "POST", "/v1/key/hmac/crypto", { message: b64("m") })).json as { hmac: string; version: number };
  const h2 = (await call(root, "POST", "/v1/key/hmac/crypto", { message: b64("m") })).json as { hmac: string; version: number };
  assert.equal(h1, h2);
  assert.is(Buffer.from(h1.hmac, "base64").length, 32);
  for (const path of ["/v1/key/generate/none", "/v1/key/encrypt/none", "/v1/key/hmac/none"]) {
    assert.equal(pick(await call(root, "POST", path, { plaintext: b64("x"), message: b64("x") })), err(404, "key does not exist"), path);
  }
  assert.equal(pick(await call(root, "POST", "/v1/key/encrypt/crypto", { plaintext: "not base64!" })), err(400, "invalid request body"));
  assert.equal(pick(await call(root, "POST", "/v1/key/encrypt/crypto", "{broken")), err(400, "invalid request body"));
  assert.equal(pick(await call(root, "POST", "/v1/key/encrypt/crypto", { plaintext: 5 })), err(400, "invalid request body"));
  assert.equal(pick(await call(root, "POST", "/v1/key/decrypt/crypto", {})), err(400, "invalid request body"));
});

routes("should import keys and validate them", async ({ root }) => {
  const key = Buffer.alloc(32, 1).toString("base64");
  assert.equal(pick(await call(root, "POST", "/v1/key/import/imp", { key })), { status: 200, json: undefined });
  assert.equal(pick(await call(root, "POST", "/v1/key/import/imp", { key })), err(409, "key already exists"));
  assert.equal(pick(await call(root, "POST", "/v1/key/import/imp2", { key: Buffer.alloc(16).toString("base64") })), err(400, "invalid key size"));
  assert.equal(pick(await call(root, "POST", "/v1/key/import/imp2", { key, algorithm: "AES256" })), err(400, "algorithm 'AES256' is not supported"));
  const e = (await call(root, "POST", "/v1/key/encrypt/imp", { plaintext: b64("hi") })).json as { ciphertext: string };
  assert.equal((await call(root, "POST", "/v1/key/decrypt/imp", { ciphertext: e.ciphertext })).json, { plaintext: b64("hi"), version: 1 });
});

routes("should isolate enclaves", async ({ root }) => {
  await call(root, "POST", "/v1/key/create/iso", {});
  const e = (await call(root, "POST", "/v1/key/encrypt/iso", { plaintext: b64("secret") })).json as { ciphertext: string };
  const other = { "kms-enclave": "other" };
  assert.equal(pick(await call(root, "GET", "/v1/key/describe/iso", undefined, other)), err(404, "key does not exist"));
  await call(root, "POST", "/v1/key/create/iso", {}, other);
  assert.equal(pick(await call(root, "POST", "/v1/key/decrypt/iso", { ciphertext: e.ciphertext }, other)), err(400, "decryption failed: ciphertext is not authentic"));
  assert.equal(pick(await call(root, "GET", "/v1/key/list/*", undefined, { "kms-enclave": "nowhere" })), err(404, "enclave does not exist"));
  assert.equal(pick(await call(root, "GET", "/v1/key/list/*", undefined, { "kms-enclave": "bad/name" })), err(400, "enclave name 'bad/name' is empty, too long or contains invalid characters"));
});

routes("should manage enclaves as root only", async ({ root, kms }) => {
  assert.equal(pick(await call(root, "POST", "/v1/enclave/create/tenant-a")), { status: 200, json: undefined });
  assert.equal(pick(await call(root, "POST", "/v1/enclave/create/tenant-a")), err(409, "enclave already exists"));
  assert.equal(pick(await call(root, "POST", "/v1/enclave/create/a.b")), err(400, "enclave name 'a.b' is empty, too long or contains invalid characters"));
  assert.equal(((await call(root, "GET", "/v1/enclave/describe/tenant-a")).json as { name: string }).name, "tenant-a");
  assert.equal((await call(root, "GET", "/v1/enclave/list/*")).json, { names: ["default", "other", "tenant-a"], continue_at: "" });
  const user = await kms?.client(newApiKey());
  assert.equal(pick(await call(user, "POST", "/v1/enclave/create/x")), err(403, "not authorized: insufficient permissions"));
  user?.close();
  assert.equal(pick(await call(root, "DELETE", "/v1/enclave/delete/tenant-a")), { status: 200, json: undefined });
  assert.equal(pick(await call(root, "GET", "/v1/enclave/describe/tenant-a")), err(404, "enclave does not exist"));
  assert.equal(pick(await call(root, "DELETE", "/v1/enclave/delete/tenant-a")), err(404, "enclave does not exist"));
});

routes("should manage policies and identities", async ({ root }) => {
  const id = identityOfSeed(parseApiKey(newApiKey()) ?? new Uint8Array(32));
  assert.equal(pick(await call(root, "POST", "/v1/policy/create/p1", { allow: ["/v1/key/list/*"], deny: [] })), { status: 200, json: undefined });
  assert.equal(pick(await call(root, "POST", "/v1/policy/create/p1", { allow: [] })), err(409, "policy already exists"));
  assert.equal(pick(await call(root, "POST", "/v1/policy/create/p.1", { allow: [] })), err(400, "policy name 'p.1' is empty, too long or contains invalid characters"));
  assert.equal(pick(await call(root, "POST", "/v1/policy/create/p2", { allow: "x" })), err(400, "invalid request body"));
  const read = (await call(root, "GET", "/v1/policy/read/p1")).json as Record<string, unknown>;
  assert.equal([read.name, read.allow, read.deny], ["p1", ["/v1/key/list/*"], []]);
  assert.equal(Object.keys((await call(root, "GET", "/v1/policy/describe/p1")).json as object), ["name", "created_at", "created_by"]);
  assert.equal(pick(await call(root, "GET", "/v1/policy/describe/none")), err(404, "policy does not exist"));
  assert.equal((await call(root, "GET", "/v1/policy/list/p*")).json, { names: ["p1"], continue_at: "" });
  assert.equal(pick(await call(root, "POST", `/v1/identity/create/${id}`, { policy: "p1" })), { status: 200, json: undefined });
  assert.equal(pick(await call(root, "POST", `/v1/identity/create/${id}`, {})), err(409, "identity already exists"));
  await call(root, "POST", "/v1/policy/create/p0", { allow: ["/v1/key/describe/*"] });
  assert.equal(pick(await call(root, "POST", "/v1/policy/assign/p0", { identity: id })), { status: 200, json: undefined });
  assert.equal(pick(await call(root, "POST", "/v1/policy/assign/none", { identity: id })), err(404, "policy does not exist"));
  const d = (await call(root, "GET", `/v1/identity/describe/${id}`)).json as Record<string, unknown>;
  assert.equal([d.identity, d.admin, d.policies], [id, false, ["p0", "p1"]]);
  const hex = Buffer.from(id.slice(3), "base64url").toString("hex");
  assert.equal(((await call(root, "GET", `/v1/identity/describe/${hex}`)).json as { identity: string }).identity, id);
  assert.ok(((await call(root, "GET", "/v1/identity/list/*")).json as { identities: string[] }).identities.includes(id));
  assert.equal(pick(await call(root, "POST", "/v1/policy/unassign/p0", { identity: id })), { status: 200, json: undefined });
  assert.equal(((await call(root, "GET", `/v1/identity/describe/${id}`)).json as { policies: string[] }).policies, ["p1"]);
  assert.equal(pick(await call(root, "DELETE", "/v1/policy/delete/p1")), { status: 200, json: undefined });
  assert.equal(((await call(root, "GET", `/v1/identity/describe/${id}`)).json as { policies: string[] }).policies, []);
  assert.equal(pick(await call(root, "DELETE", "/v1/policy/delete/p1")), err(404, "policy does not exist"));
  assert.equal(pick(await call(root, "DELETE", `/v1/identity/delete/${id}`)), { status: 200, json: undefined });
  assert.equal(pick(await call(root, "GET", `/v1/identity/describe/${id}`)), err(404, "identity does not exist"));
  assert.equal(pick(await call(root, "DELETE", `/v1/identity/delete/${id}`)), err(404, "identity does not exist"));
});

routes("should enforce the policy matrix", async ({ root, kms }) => {
  const keys = { allow: newApiKey(), deny: newApiKey(), none: newApiKey(), admin: newApiKey(), stranger: newApiKey() };
  const idOf = (k: string) => identityOfSeed(parseApiKey(k) ?? new Uint8Array(32));
  await call(root, "POST", "/v1/key/create/app-x", {});
  await call(root, "POST", "/v1/key/create/db-x", {});
  await call(root, "POST", "/v1/policy/create/gen", { allow: ["/v1/key/generate/app-*", "/v1/key/decrypt/app-*", "/v1/key/describe/app-x"] });
  await call(root, "POST", "/v1/policy/create/nogen", { deny: ["/v1/key/generate/app-x"] });
  await call(root, "POST", `/v1/identity/create/${idOf(keys.allow)}`, { policy: "gen" });
  await call(root, "POST", `/v1/identity/create/${idOf(keys.deny)}`, { policy: "gen" });
  await call(root, "POST", "/v1/policy/assign/nogen", { identity: idOf(keys.deny) });
  await call(root, "POST", `/v1/identity/create/${idOf(keys.none)}`, {});
  await call(root, "POST", `/v1/identity/create/${idOf(keys.admin)}`, { admin: true });
  const c = Object.fromEntries(await Promise.all(Object.entries(keys).map(async ([k, v]) => [k, await kms?.client(v)] as const)));
  const forbidden = err(403, "not authorized: insufficient permissions");
  // allow + prefix
  assert.is((await call(c.allow, "POST", "/v1/key/generate/app-x", {})).status, 200);
  assert.equal(pick(await call(c.allow, "POST", "/v1/key/generate/db-x", {})), forbidden);
  assert.is((await call(c.allow, "GET", "/v1/key/describe/app-x")).status, 200);
  assert.equal(pick(await call(c.allow, "GET", "/v1/key/describe/app-y")), forbidden);
  assert.equal(pick(await call(c.allow, "POST", "/v1/key/create/app-z", {})), forbidden);
  // deny wins over allow from another policy
  assert.equal(pick(await call(c.deny, "POST", "/v1/key/generate/app-x", {})), forbidden);
  assert.is((await call(c.deny, "GET", "/v1/key/describe/app-x")).status, 200);
  // no policy: only self-describe
  assert.equal(pick(await call(c.none, "GET", "/v1/key/describe/app-x")), forbidden);
  const self = (await call(c.none, "GET", "/v1/identity/self/describe")).json as Record<string, unknown>;
  assert.equal([self.identity, self.policies, self.allow, self.deny], [idOf(keys.none), [], [], []]);
  const selfDeny = (await call(c.deny, "GET", "/v1/identity/self/describe")).json as Record<string, unknown>;
  assert.equal([selfDeny.policies, selfDeny.deny], [["gen", "nogen"], ["/v1/key/generate/app-x"]]);
  // unknown identity: only self-describe
  assert.equal(pick(await call(c.stranger, "POST", "/v1/key/generate/app-x", {})), forbidden);
  assert.is((await call(c.stranger, "GET", "/v1/identity/self/describe")).status, 200);
  // admin: every key/policy/identity route in its enclave, nothing else
  assert.is((await call(c.admin, "POST", "/v1/key/create/adm-1", {})).status, 200);
  assert.is((await call(c.admin, "POST", "/v1/policy/create/adm-p", { allow: [] })).status, 200);
  assert.is((await call(c.admin, "GET", "/v1/identity/list/*")).status, 200);
  assert.equal(pick(await call(c.admin, "POST", "/v1/enclave/create/adm", {})), forbidden);
  assert.equal(pick(await call(c.admin, "GET", "/v1/cluster/status")), forbidden);
  assert.equal(pick(await call(c.admin, "GET", "/v1/key/list/*", undefined, { "kms-enclave": "other" })), forbidden);
  // the decrypt policy applies to ciphertexts made by others
  const g = (await call(root, "POST", "/v1/key/generate/app-x", {})).json as { ciphertext: string; plaintext: string };
  assert.equal((await call(c.allow, "POST", "/v1/key/decrypt/app-x", { ciphertext: g.ciphertext })).json, { plaintext: g.plaintext, version: 1 });
  for (const v of Object.values(c)) v?.close();
});

routes("should answer wrong methods, unknown routes and big bodies as the contract says", async ({ root }) => {
  const m = await call(root, "GET", "/v1/key/create/k");
  assert.equal([m.status, m.json, m.allow], [405, { message: "received method 'GET' expected 'POST'" }, "POST"]);
  const d = await call(root, "POST", "/v1/key/describe/k");
  assert.equal([d.status, d.allow], [405, "GET, HEAD"]);
  assert.equal(pick(await call(root, "GET", "/v1/nothing")), err(404, "not found"));
  assert.equal(pick(await call(root, "POST", "/v1/key/encrypt/k", { plaintext: "A".repeat(1024 * 1024 + 8) })), err(413, "request body too large"));
});

routes("should report status and cluster status", async ({ root, fx }) => {
  const s = (await call(root, "GET", "/v1/status")).json as Record<string, unknown>;
  assert.equal(Object.keys(s), ["version", "uptime", "node_id", "leader_id", "role", "term", "commit_index", "applied_index", "nodes", "hsm"]);
  assert.equal(s.hsm, { kind: fx?.hsmKind, active: true });
  const cs = (await call(root, "GET", "/v1/cluster/status")).json as { nodes: unknown[] };
  assert.is(cs.nodes.length, 1);
});

routes("should write and stream the audit log without secrets", async ({ root, fx, kms }) => {
  const seed = parseApiKey(kms?.rootApiKey ?? "") ?? new Uint8Array(32);
  const { clientCertificateOf } = await import("@mc/kms");
  const cert = await clientCertificateOf(seed);
  const ca = await readFile(fx?.certs.caFile ?? "");
  const firstLine = new Promise<string>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: fx?.port, path: "/v1/log/audit", ca, cert: cert.cert, key: cert.key, agent: false }, (res) => {
      assert.is(res.headers["content-type"], "application/x-ndjson");
      let buf = "";
      res.on("data", (c: Buffer) => {
        buf += c.toString();
        const nl = buf.indexOf("\n");
        if (nl >= 0) {
          resolve(buf.slice(0, nl));
          req.destroy();
        }
      });
    });
    req.on("error", reject);
    req.end();
  });
  // The subscription is open once its request reached the server; poll with requests until a line arrives.
  let line: string | undefined;
  void firstLine.then((l) => (line = l));
  for (let i = 0; i < 200 && line === undefined; i++) await call(root, "POST", "/v1/key/create/audit-x", {});
  const event = JSON.parse(await firstLine) as { time: string; request: Record<string, string>; response: Record<string, number> };
  assert.equal(Object.keys(event), ["time", "request", "response"]);
  assert.match(event.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  assert.equal(Object.keys(event.request), ["ip", "enclave", "path", "identity"]);
  assert.is(event.request.identity, root?.identity);
  const secret = "c2VjcmV0LXBsYWludGV4dA==";
  await call(root, "POST", "/v1/key/encrypt/audit-x", { plaintext: secret });
  // The sink is a write stream: poll until the line is on disk.
  const file = await waitFor(async () => {
    const text = await readFile(join(fx?.dir ?? "", "audit.log"), "utf8");
    return text.includes('"path":"/v1/key/encrypt/audit-x"') && text;
  }, { what: "the audit line on disk" });
  assert.not.match(file, /\/v1\/health/);
  assert.not.ok(file.includes(secret));
  assert.not.ok(file.includes(kms?.rootApiKey ?? "never"));
});

const idOf = (k: string) => identityOfSeed(parseApiKey(k) ?? new Uint8Array(32));
const hexOf = (id: string) => Buffer.from(id.slice(3), "base64url").toString("hex");
const pct = (s: string) => [...s].map((ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");

routes("should hold a deny rule on an identity route whatever spelling names the identity", async ({ root, kms }) => {
  const userKey = newApiKey();
  const victim = idOf(newApiKey());
  const hexVictim = idOf(newApiKey());
  const other = idOf(newApiKey());
  // One deny names its identity in h1 form, the other in KES hex form.
  await call(root, "POST", "/v1/policy/create/idm", { allow: ["/v1/identity/*"], deny: [`/v1/identity/delete/${victim}`, `/v1/identity/delete/${hexOf(hexVictim)}`] });
  await call(root, "POST", `/v1/identity/create/${idOf(userKey)}`, { policy: "idm" });
  for (const id of [victim, hexVictim, other]) assert.is((await call(root, "POST", `/v1/identity/create/${id}`, {})).status, 200);
  const user = await kms?.client(userKey);
  const forbidden = err(403, "not authorized: insufficient permissions");
  for (const target of [victim, hexVictim]) {
    const hex = hexOf(target);
    const canonicalised = [target, hex, hex.toUpperCase(), `${hex.slice(0, 32).toUpperCase()}${hex.slice(32)}`, pct(hex), pct(target), target.replace(":", "%3A"), target.replace(":", "%3a")];
    for (const spelling of canonicalised) {
      assert.equal(pick(await call(user, "DELETE", `/v1/identity/delete/${spelling}`)), forbidden, spelling);
      assert.equal(pick(await call(user, "GET", `/v1/identity/describe/${spelling}`)).status, 200, `describe ${spelling}`);
    }
    // Spellings that are not a route or not an identity: refused before any policy, never a 5xx.
    const refused = [`${target}/`, `${hex}/`, `./${hex}`, `../delete/${hex}`, `%2e/${hex}`, `${hex}%2F`, `${hex}/.`, `x/../${hex}`, `%2e%2e%2fdelete%2f${hex}`, `%09${hex}`, `${hex}%00`, `${hex}%20`];
    const prefixes = ["/v1/identity/delete/", "/v1/identity//delete/", "/v1//identity/delete/", "//v1/identity/delete/", "/v1/identity/./delete/", "/v1/identity/x/../delete/", "/v1/./identity/delete/"];
    for (const prefix of prefixes) {
      for (const spelling of prefix === "/v1/identity/delete/" ? refused : [target, hex]) {
        const a = await call(user, "DELETE", `${prefix}${spelling}`);
        assert.ok(a.status === 400 || a.status === 404 || a.status === 403, `${prefix}${spelling} -> ${a.status}`);
      }
    }
    assert.is((await call(root, "GET", `/v1/identity/describe/${target}`)).status, 200, "the denied identity still exists");
  }
  // The allow rule works on the canonical request too: a hex spelling of a not-denied identity.
  assert.equal(pick(await call(user, "DELETE", `/v1/identity/delete/${hexOf(other).toUpperCase()}`)), { status: 200, json: undefined });
  assert.equal(pick(await call(root, "GET", `/v1/identity/describe/${other}`)), err(404, "identity does not exist"));
  user?.close();
});

routes("should let only root mint or remove admins, and grant policies only where assigning them is allowed", async ({ root, kms }) => {
  const keys = { idUser: newApiKey(), assigner: newApiKey(), admin: newApiKey(), otherAdmin: newApiKey() };
  await call(root, "POST", "/v1/policy/create/ids-only", { allow: ["/v1/identity/*"] });
  await call(root, "POST", "/v1/policy/create/ids-assign", { allow: ["/v1/identity/*", "/v1/policy/assign/minor"] });
  await call(root, "POST", "/v1/policy/create/minor", { allow: ["/v1/key/list/*"] });
  await call(root, "POST", "/v1/policy/create/major", { allow: ["/v1/*"] });
  await call(root, "POST", `/v1/identity/create/${idOf(keys.idUser)}`, { policy: "ids-only" });
  await call(root, "POST", `/v1/identity/create/${idOf(keys.assigner)}`, { policy: "ids-assign" });
  assert.equal(pick(await call(root, "POST", `/v1/identity/create/${idOf(keys.admin)}`, { admin: true })), { status: 200, json: undefined });
  await call(root, "POST", `/v1/identity/create/${hexOf(idOf(keys.otherAdmin))}`, { admin: true });
  const c = Object.fromEntries(await Promise.all(Object.entries(keys).map(async ([k, v]) => [k, await kms?.client(v)] as const)));
  const forbidden = err(403, "not authorized: insufficient permissions");
  const fresh = () => idOf(newApiKey());
  // A user allowed /v1/identity/* cannot mint an admin, nor hand out a policy it may not assign.
  assert.equal(pick(await call(c.idUser, "POST", `/v1/identity/create/${fresh()}`, { admin: true })), forbidden);
  assert.equal(pick(await call(c.idUser, "POST", `/v1/identity/create/${hexOf(fresh())}`, { admin: true })), forbidden);
  assert.equal(pick(await call(c.idUser, "POST", `/v1/identity/create/${fresh()}`, { policy: "major" })), forbidden);
  assert.equal(pick(await call(c.idUser, "POST", `/v1/identity/create/${fresh()}`, {})), { status: 200, json: undefined });
  assert.equal(pick(await call(c.assigner, "POST", `/v1/identity/create/${fresh()}`, { policy: "major" })), forbidden);
  assert.equal(pick(await call(c.assigner, "POST", `/v1/identity/create/${fresh()}`, { policy: "minor" })), { status: 200, json: undefined });
  assert.equal(pick(await call(c.assigner, "POST", `/v1/identity/create/${fresh()}`, { policy: "minor", admin: true })), forbidden);
  // Nor remove one.
  assert.equal(pick(await call(c.idUser, "DELETE", `/v1/identity/delete/${idOf(keys.admin)}`)), forbidden);
  // An enclave admin manages users, not admins.
  const user = fresh();
  assert.equal(pick(await call(c.admin, "POST", `/v1/identity/create/${user}`, { policy: "major" })), { status: 200, json: undefined });
  assert.equal(pick(await call(c.admin, "DELETE", `/v1/identity/delete/${user}`)), { status: 200, json: undefined });
  assert.equal(pick(await call(c.admin, "POST", `/v1/identity/create/${fresh()}`, { admin: true })), forbidden);
  assert.equal(pick(await call(c.admin, "DELETE", `/v1/identity/delete/${hexOf(idOf(keys.otherAdmin))}`)), forbidden);
  assert.is(((await call(root, "GET", `/v1/identity/describe/${idOf(keys.otherAdmin)}`)).json as { admin: boolean }).admin, true);
  assert.equal(pick(await call(root, "DELETE", `/v1/identity/delete/${idOf(keys.otherAdmin)}`)), { status: 200, json: undefined });
  for (const v of Object.values(c)) v?.close();
});

/** Opens `/v1/log/audit` as `client`'s key; collects lines until `until` sees one, then hangs up. */
async function auditLines(fx: KmsFixture | undefined, apiKey: string, enclave: string, until: (line: string) => boolean, poke: () => Promise<unknown>): Promise<string[]> {
  const { clientCertificateOf } = await import("@mc/kms");
  const cert = await clientCertificateOf(parseApiKey(apiKey) ?? new Uint8Array(32));
  const ca = await readFile(fx?.certs.caFile ?? "");
  const lines: string[] = [];
  let done = false;
  const finished = new Promise<void>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: fx?.port, path: "/v1/log/audit", ca, cert: cert.cert, key: cert.key, agent: false, headers: { "kms-enclave": enclave } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`audit answered ${res.statusCode}`));
      let buf = "";
      res.on("data", (c: Buffer) => {
        buf += c.toString();
        for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          lines.push(line);
          if (until(line)) {
            done = true;
            req.destroy();
            resolve();
          }
        }
      });
    });
    req.on("error", (e) => (done ? resolve() : reject(e)));
    req.end();
  });
  for (let i = 0; i < 200 && !done; i++) await poke();
  await finished;
  return lines;
}

routes("should stream to an enclave's subscriber only that enclave's events, to root all", async ({ root, kms, fx }) => {
  const watcher = newApiKey();
  await call(root, "POST", "/v1/policy/create/auditor", { allow: ["/v1/log/audit"] });
  await call(root, "POST", `/v1/identity/create/${idOf(watcher)}`, { policy: "auditor" });
  const otherUser = idOf(newApiKey());
  const elsewhere = { "kms-enclave": "other" };
  const marker = `marker-${Date.now()}`;
  let n = 0;
  // Events of the other enclave (and root-only routes) before the marker: the watcher must see none of them.
  const poke = async () => {
    await call(root, "POST", `/v1/key/create/hidden-${n}`, {}, elsewhere);
    await call(root, "POST", `/v1/identity/create/${otherUser}`, {}, elsewhere);
    await call(root, "GET", `/v1/enclave/describe/other`);
    await call(root, "GET", `/v1/key/describe/${marker}-${n++}`);
  };
  // The second marker proves a whole round of hidden events happened while the stream was live.
  let markers = 0;
  const seen = await auditLines(fx, watcher, "default", (l) => l.includes(marker) && ++markers === 2, poke);
  const events = seen.map((l) => JSON.parse(l) as { request: { enclave: string; path: string; identity: string } });
  assert.ok(events.some((e) => e.request.path.includes(marker)));
  for (const e of events) {
    assert.is(e.request.enclave, "default", JSON.stringify(e));
    assert.not.match(e.request.path, /hidden-|\/v1\/enclave\//, JSON.stringify(e));
  }
  assert.not.ok(seen.join("\n").includes(otherUser), "no identity of the other enclave");
  // Root sees everything.
  const all = await auditLines(fx, kms?.rootApiKey ?? "", "default", (l) => l.includes("hidden-"), poke);
  assert.match(all.at(-1) ?? "", /"enclave":"other"/);
});

routes("should end an audit stream quietly when its client goes away", async ({ root, kms, fx }) => {
  const before = kms?.proc.output().length ?? 0;
  for (let i = 0; i < 3; i++) {
    await auditLines(fx, kms?.rootApiKey ?? "", "default", () => true, () => call(root, "GET", "/v1/key/list/*"));
  }
  // Give the server time to notice the hang-ups, then make sure it still answers.
  await new Promise((r) => setTimeout(r, 300));
  assert.is((await call(root, "GET", "/v1/key/list/*")).status, 200);
  const logged = kms?.proc.output().slice(before) ?? "";
  assert.not.match(logged, /internal error|ERR_STREAM|at \S+ \(/, logged);
});

routes.run();
