import { identityOfSeed, newApiKey, parseApiKey } from "@mc/kms";
import { ClusterService } from "@mc/kms/gen/kms/v1/cluster_pb.js";
import { EnclaveService } from "@mc/kms/gen/kms/v1/enclave_pb.js";
import { HealthService } from "@mc/kms/gen/kms/v1/health_pb.js";
import { IdentityService } from "@mc/kms/gen/kms/v1/identity_pb.js";
import { KeyService } from "@mc/kms/gen/kms/v1/key_pb.js";
import { PolicyService } from "@mc/kms/gen/kms/v1/policy_pb.js";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { checkAuditStreams, checkStatusBodies } from "./rest-connect-checks.js";
import { actor, asRest, call, facts, newLines, normal, rpcPathOf, startTwin, stopTwin, type Answer, type Step, type TwinCtx } from "./rest-connect-twins.js";

/**
 * Every operation of contract §4 through both edges (issue 18): the same
 * script goes over REST to one node and over Connect to its twin. Each step
 * must give the same status, the same answer (a Connect answer read as the
 * REST JSON: the response message with the proto field names) and the same
 * audit line (contract §9).
 */
type Ctx = TwinCtx;
const eq = suite<Ctx>("kms REST and Connect: same answer, status and audit line", { rest: undefined, rpc: undefined });

eq.before(async (ctx) => {
  [ctx.rest, ctx.rpc] = await Promise.all([startTwin(), startTwin()]);
});
eq.after(async (ctx) => {
  await Promise.all([stopTwin(ctx.rest), stopTwin(ctx.rpc)]);
});

/** One step through both edges; the REST answer for the steps that use it. */
async function both(ctx: Ctx, what: string, s: Step): Promise<Answer> {
  const { rest: rt, rpc: ct } = ctx;
  if (!rt || !ct) throw new Error("no nodes");
  const who = s.as ?? "root";
  const [method, path, body] = s.rest;
  const [m, message] = s.rpc;
  const r = await call(rt, who, method, path, body, s.enclave);
  const c = await call(ct, who, "POST", rpcPathOf(m), message, s.enclave);
  assert.is(c.status, r.status, `${what}: status (REST ${JSON.stringify(r.body)}, Connect ${JSON.stringify(c.body)})`);
  if (s.status !== undefined) assert.is(r.status, s.status, `${what}: ${JSON.stringify(r.body)}`);
  if (s.compare) s.compare(r, c, what);
  else if (s.empty && r.status === 200) assert.is(r.body, undefined, `${what}: REST answers 200 empty`);
  else assert.equal(normal(asRest(m, c), ct, s.random), normal(r.body, rt, s.random), `${what}: answer`);

  const [lr, lc] = await Promise.all([newLines(rt, (l) => s.unaudited || l.length > 0), newLines(ct, (l) => s.unaudited || l.length > 0)]);
  assert.equal([lr.length, lc.length], s.unaudited ? [0, 0] : [1, 1], `${what}: audit line count`);
  if (s.unaudited) return r;
  const [a, b] = [facts(lr[0]), facts(lc[0])];
  assert.ok(a.timed && b.timed, `${what}: audit times`);
  if (s.asSent) {
    assert.equal([a.path, b.path], [path.split("?")[0], rpcPathOf(m)], `${what}: audited as sent`);
    assert.equal({ ...b, path: "" }, { ...a, path: "" }, `${what}: audit line`);
  } else {
    assert.equal(b, a, `${what}: audit line`);
  }
  return r;
}

const k = KeyService.method;
const p = PolicyService.method;
const i = IdentityService.method;
const e = EnclaveService.method;
const h = HealthService.method;
const c = ClusterService.method;
const b64 = (s: string | Uint8Array) => Buffer.from(s).toString("base64");
const userKey = newApiKey();
const userId = identityOfSeed(parseApiKey(userKey) ?? new Uint8Array(32));
const userHex = Buffer.from(userId.slice(3), "base64url").toString("hex");

eq("health, version and metrics: public on both, never audited", async (ctx) => {
  await both(ctx, "version", { rest: ["GET", "/version"], rpc: [h.getVersion, {}], unaudited: true });
  await both(ctx, "version without a certificate", { rest: ["GET", "/version"], rpc: [h.getVersion, {}], as: "none", unaudited: true });
  await both(ctx, "live", { rest: ["GET", "/v1/health/live"], rpc: [h.checkLiveness, {}], unaudited: true });
  await both(ctx, "ready", { rest: ["GET", "/v1/health/ready"], rpc: [h.checkReadiness, {}], unaudited: true });
  await both(ctx, "ready for writes", { rest: ["GET", "/v1/health/ready?write"], rpc: [h.checkReadiness, { write: true }], unaudited: true });
  await both(ctx, "metrics", {
    rest: ["GET", "/v1/health/metrics"], rpc: [h.getMetrics, {}], unaudited: true,
    compare: (r, m, what) => {
      const rpc = m.body as { contentType: string; text: string };
      assert.is(rpc.contentType, r.contentType, `${what}: content type`);
      for (const text of [rpc.text, String(r.body)]) assert.match(text, /^# HELP http_request_inflight/m, what);
    },
  });
});

eq("keys: create, import, describe, list, generate, encrypt, decrypt, hmac, delete", async (ctx) => {
  const key = b64(new Uint8Array(32).fill(7));
  await both(ctx, "create", { rest: ["POST", "/v1/key/create/k1", {}], rpc: [k.createKey, { name: "k1" }], empty: true });
  await both(ctx, "create existing", { rest: ["POST", "/v1/key/create/k1", {}], rpc: [k.createKey, { name: "k1" }] });
  await both(ctx, "create bad name", { rest: ["POST", "/v1/key/create/a%20b", {}], rpc: [k.createKey, { name: "a b" }], asSent: true });
  await both(ctx, "create bad algorithm", { rest: ["POST", "/v1/key/create/k2", { algorithm: "AES-256" }], rpc: [k.createKey, { name: "k2", algorithm: "AES-256" }] });
  await both(ctx, "rotate", { rest: ["PUT", "/v1/key/create/k1", { add_version: true }], rpc: [k.createKey, { name: "k1", addVersion: true }], empty: true });
  await both(ctx, "rotate missing", { rest: ["POST", "/v1/key/create/nope", { add_version: true }], rpc: [k.createKey, { name: "nope", addVersion: true }] });
  await both(ctx, "import", { rest: ["POST", "/v1/key/import/imp", { key }], rpc: [k.importKey, { name: "imp", key }], empty: true });
  await both(ctx, "import short key", { rest: ["POST", "/v1/key/import/imp2", { key: b64("short") }], rpc: [k.importKey, { name: "imp2", key: b64("short") }] });
  await both(ctx, "describe", { rest: ["GET", "/v1/key/describe/k1"], rpc: [k.describeKey, { name: "k1" }] });
  await both(ctx, "describe version", { rest: ["GET", "/v1/key/describe/k1?version=1"], rpc: [k.describeKey, { name: "k1", version: 1 }] });
  await both(ctx, "describe stale", { rest: ["GET", "/v1/key/describe/k1?stale=true"], rpc: [k.describeKey, { name: "k1", stale: true }] });
  await both(ctx, "describe missing version", { rest: ["GET", "/v1/key/describe/k1?version=9"], rpc: [k.describeKey, { name: "k1", version: 9 }] });
  await both(ctx, "describe missing", { rest: ["GET", "/v1/key/describe/nope"], rpc: [k.describeKey, { name: "nope" }], status: 404 });
  await both(ctx, "describe in another enclave", { rest: ["GET", "/v1/key/describe/k1"], rpc: [k.describeKey, { name: "k1" }], enclave: "other" });
  await both(ctx, "describe in an unknown enclave", { rest: ["GET", "/v1/key/describe/k1"], rpc: [k.describeKey, { name: "k1" }], enclave: "nosuch", status: 404 });
  await both(ctx, "describe with a bad enclave name", { rest: ["GET", "/v1/key/describe/k1"], rpc: [k.describeKey, { name: "k1" }], enclave: "a+b", asSent: true, status: 400 });
  await both(ctx, "list", { rest: ["GET", "/v1/key/list/*"], rpc: [k.listKeys, { pattern: "*" }] });
  await both(ctx, "list a page", { rest: ["GET", "/v1/key/list/*?limit=1"], rpc: [k.listKeys, { pattern: "*", limit: 1 }] });
  await both(ctx, "list on", { rest: ["GET", "/v1/key/list/*?continue_at=imp&stale=true"], rpc: [k.listKeys, { pattern: "*", continueAt: "imp", stale: true }] });
  const context = b64("bucket/object");
  const random = ["plaintext", "ciphertext"];
  await both(ctx, "generate", { rest: ["POST", "/v1/key/generate/imp", { context }], rpc: [k.generate, { name: "imp", context }], random });
  await both(ctx, "generate without a body", { rest: ["POST", "/v1/key/generate/imp"], rpc: [k.generate, { name: "imp" }], random });
  await both(ctx, "generate too long", { rest: ["POST", "/v1/key/generate/imp", { length: 2000 }], rpc: [k.generate, { name: "imp", length: 2000 }] });
  const plaintext = b64("hello");
  const sealed = await both(ctx, "encrypt", { rest: ["POST", "/v1/key/encrypt/imp", { plaintext, context }], rpc: [k.encrypt, { name: "imp", plaintext, context }], random });
  // The imported key is the same on both nodes: the REST node's ciphertext opens on either.
  const ciphertext = (sealed.body as { ciphertext: string }).ciphertext;
  await both(ctx, "decrypt", { rest: ["POST", "/v1/key/decrypt/imp", { ciphertext, context }], rpc: [k.decrypt, { name: "imp", ciphertext, context }] });
  await both(ctx, "decrypt out of context", { rest: ["POST", "/v1/key/decrypt/imp", { ciphertext }], rpc: [k.decrypt, { name: "imp", ciphertext }] });
  // Import sets the encryption key; each node draws its own HMAC key, so only the length can agree.
  await both(ctx, "hmac", { rest: ["POST", "/v1/key/hmac/imp", { message: plaintext }], rpc: [k.hmac, { name: "imp", message: plaintext }], random: ["hmac"] });
  await both(ctx, "hmac missing", { rest: ["POST", "/v1/key/hmac/nope", { message: plaintext }], rpc: [k.hmac, { name: "nope", message: plaintext }] });
  await both(ctx, "delete a version", { rest: ["DELETE", "/v1/key/delete/k1?version=1"], rpc: [k.deleteKey, { name: "k1", version: 1 }], empty: true });
  await both(ctx, "delete", { rest: ["DELETE", "/v1/key/delete/k1"], rpc: [k.deleteKey, { name: "k1" }], empty: true });
  await both(ctx, "delete missing", { rest: ["DELETE", "/v1/key/delete/k1"], rpc: [k.deleteKey, { name: "k1" }] });
});

eq("policies and identities, as root, as a user and without a certificate", async (ctx) => {
  const rules = { allow: ["/v1/key/describe/imp", "/v1/policy/read/eq-*"], deny: ["/v1/policy/read/eq-secret"] };
  await both(ctx, "policy create", { rest: ["POST", "/v1/policy/create/eq-pol", rules], rpc: [p.createPolicy, { name: "eq-pol", ...rules }], empty: true });
  await both(ctx, "policy create existing", { rest: ["POST", "/v1/policy/create/eq-pol", rules], rpc: [p.createPolicy, { name: "eq-pol", ...rules }] });
  await both(ctx, "policy create second", { rest: ["POST", "/v1/policy/create/eq-two", {}], rpc: [p.createPolicy, { name: "eq-two" }], empty: true });
  await both(ctx, "policy describe", { rest: ["GET", "/v1/policy/describe/eq-pol"], rpc: [p.describePolicy, { name: "eq-pol" }] });
  await both(ctx, "policy read", { rest: ["GET", "/v1/policy/read/eq-pol?stale=true"], rpc: [p.readPolicy, { name: "eq-pol", stale: true }] });
  await both(ctx, "policy list", { rest: ["GET", "/v1/policy/list/eq-*"], rpc: [p.listPolicies, { pattern: "eq-*" }] });
  await both(ctx, "identity create", { rest: ["POST", "/v1/identity/create/" + userId, { policy: "eq-pol" }], rpc: [i.createIdentity, { id: userId, policy: "eq-pol" }], empty: true });
  await both(ctx, "identity describe (KES spelling)", { rest: ["GET", "/v1/identity/describe/" + userHex], rpc: [i.describeIdentity, { id: userHex }] });
  await both(ctx, "identity list", { rest: ["GET", "/v1/identity/list/*"], rpc: [i.listIdentities, { pattern: "*" }] });
  await both(ctx, "policy assign", { rest: ["POST", "/v1/policy/assign/eq-two", { identity: userId }], rpc: [p.assignPolicy, { name: "eq-two", identity: userId }], empty: true });
  if (!ctx.rest || !ctx.rpc) throw new Error("no nodes");
  await Promise.all([actor(ctx.rest, "user", userKey), actor(ctx.rpc, "user", userKey)]);
  await both(ctx, "self describe", { rest: ["GET", "/v1/identity/self/describe"], rpc: [i.describeSelf, {}], as: "user" });
  await both(ctx, "user: allowed", { rest: ["GET", "/v1/key/describe/imp"], rpc: [k.describeKey, { name: "imp" }], as: "user", status: 200 });
  await both(ctx, "user: denied", { rest: ["GET", "/v1/policy/read/eq-secret"], rpc: [p.readPolicy, { name: "eq-secret" }], as: "user", status: 403 });
  await both(ctx, "user: not allowed", { rest: ["POST", "/v1/key/generate/imp"], rpc: [k.generate, { name: "imp" }], as: "user", status: 403 });
  await both(ctx, "no certificate", { rest: ["GET", "/v1/key/describe/imp"], rpc: [k.describeKey, { name: "imp" }], as: "none", status: 401 });
  await both(ctx, "policy unassign", { rest: ["POST", "/v1/policy/unassign/eq-two", { identity: userHex }], rpc: [p.unassignPolicy, { name: "eq-two", identity: userHex }], empty: true });
  await both(ctx, "policy delete", { rest: ["DELETE", "/v1/policy/delete/eq-two"], rpc: [p.deletePolicy, { name: "eq-two" }], empty: true });
  await both(ctx, "policy describe deleted", { rest: ["GET", "/v1/policy/describe/eq-two"], rpc: [p.describePolicy, { name: "eq-two" }] });
  await both(ctx, "identity delete", { rest: ["DELETE", "/v1/identity/delete/" + userId], rpc: [i.deleteIdentity, { id: userId }], empty: true });
  await both(ctx, "identity describe deleted", { rest: ["GET", "/v1/identity/describe/" + userId], rpc: [i.describeIdentity, { id: userId }] });
});

eq("enclaves and the cluster routes: root only", async (ctx) => {
  await both(ctx, "enclave create", { rest: ["POST", "/v1/enclave/create/eq-en"], rpc: [e.createEnclave, { name: "eq-en" }], empty: true });
  await both(ctx, "enclave create existing", { rest: ["POST", "/v1/enclave/create/eq-en"], rpc: [e.createEnclave, { name: "eq-en" }] });
  await both(ctx, "enclave describe", { rest: ["GET", "/v1/enclave/describe/eq-en"], rpc: [e.describeEnclave, { name: "eq-en" }] });
  await both(ctx, "enclave list", { rest: ["GET", "/v1/enclave/list/*?stale=true"], rpc: [e.listEnclaves, { pattern: "*", stale: true }] });
  await both(ctx, "key in the new enclave", { rest: ["POST", "/v1/key/create/en-key"], rpc: [k.createKey, { name: "en-key" }], enclave: "eq-en", empty: true });
  await both(ctx, "enclave delete", { rest: ["DELETE", "/v1/enclave/delete/eq-en"], rpc: [e.deleteEnclave, { name: "eq-en" }], empty: true });
  await both(ctx, "enclave describe deleted", { rest: ["GET", "/v1/enclave/describe/eq-en"], rpc: [e.describeEnclave, { name: "eq-en" }] });
  await both(ctx, "enclave list as a user", { rest: ["GET", "/v1/enclave/list/*"], rpc: [e.listEnclaves, { pattern: "*" }], as: "user", status: 403 });
  const host = { host: "127.0.0.1:9" };
  await both(ctx, "cluster add on a single node", { rest: ["POST", "/v1/cluster/add", host], rpc: [c.addNode, host] });
  await both(ctx, "cluster remove on a single node", { rest: ["POST", "/v1/cluster/remove", host], rpc: [c.removeNode, host] });
  await both(ctx, "cluster add as a user", { rest: ["POST", "/v1/cluster/add", host], rpc: [c.addNode, host], as: "user" });
  await both(ctx, "cluster status as a user", { rest: ["GET", "/v1/cluster/status"], rpc: [c.getClusterStatus, {}], as: "user" });
  await both(ctx, "status as a user", { rest: ["GET", "/v1/status"], rpc: [c.getStatus, {}], as: "user" });
  await checkStatusBodies(ctx, both);
});

eq("the audit log: the same events streamed, the same refusal", async (ctx) => {
  await checkAuditStreams(ctx);
});

eq.run();
