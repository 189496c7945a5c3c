import { readFile } from "node:fs/promises";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { clientCertificateOf, identityOfSeed, newApiKey, parseApiKey } from "@mc/kms";
import { KeyService } from "@mc/kms/gen/kms/v1/key_pb.js";
import { IdentityService } from "@mc/kms/gen/kms/v1/identity_pb.js";
import { PolicyService } from "@mc/kms/gen/kms/v1/policy_pb.js";
import { ClusterService } from "@mc/kms/gen/kms/v1/cluster_pb.js";
import { AuditService } from "@mc/kms/gen/kms/v1/audit_pb.js";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createFixture, runKms, type KmsFixture, type RunningKms } from "./kms-harness.js";

interface Ctx {
  fx: KmsFixture | undefined;
  kms: RunningKms | undefined;
}
const connect = suite<Ctx>("kms Connect services on the edge", { fx: undefined, kms: undefined });

connect.before(async (ctx) => {
  ctx.fx = await createFixture();
  ctx.kms = await runKms(ctx.fx, { KMS_HSM_KEY: "" });
});
connect.after(async (ctx) => {
  await ctx.kms?.proc.stop();
  await ctx.fx?.cleanup();
});

async function transportFor(fx: KmsFixture | undefined, apiKey: string) {
  const cert = await clientCertificateOf(parseApiKey(apiKey) ?? new Uint8Array(32));
  const ca = await readFile(fx?.certs.caFile ?? "");
  return createConnectTransport({ baseUrl: `https://127.0.0.1:${fx?.port}`, httpVersion: "1.1", nodeOptions: { ca, cert: cert.cert, key: cert.key } });
}

async function code(p: Promise<unknown>): Promise<[Code, string]> {
  try {
    await p;
  } catch (e) {
    const c = ConnectError.from(e);
    return [c.code, c.rawMessage];
  }
  return [Code.Unknown, "no error"];
}

connect("should serve keys with the same identity and policy check as REST", async ({ fx, kms }) => {
  const root = await transportFor(fx, kms?.rootApiKey ?? "");
  const keys = createClient(KeyService, root);
  assert.is((await keys.createKey({ name: "rpc-key" })).version, 1);
  assert.equal(await code(keys.createKey({ name: "rpc-key" })), [Code.AlreadyExists, "key already exists"]);
  assert.equal(await code(keys.createKey({ name: "bad/name" })), [Code.InvalidArgument, "key name 'bad/name' is empty, too long or contains invalid characters"]);
  const ctx = new Uint8Array([1, 2]);
  const g = await keys.generate({ name: "rpc-key", context: ctx });
  assert.is(g.plaintext.length, 32);
  assert.equal((await keys.decrypt({ name: "rpc-key", ciphertext: g.ciphertext, context: ctx })).plaintext, g.plaintext);
  assert.equal(await code(keys.decrypt({ name: "rpc-key", ciphertext: g.ciphertext })), [Code.InvalidArgument, "decryption failed: ciphertext is not authentic"]);
  assert.equal(await code(keys.describeKey({ name: "rpc-key" }, { headers: { "kms-enclave": "other" } })), [Code.NotFound, "key does not exist"]);
  assert.equal((await keys.listKeys({ pattern: "rpc-*" })).names, ["rpc-key"]);

  const userKey = newApiKey();
  const userId = identityOfSeed(parseApiKey(userKey) ?? new Uint8Array(32));
  await createClient(PolicyService, root).createPolicy({ name: "rpc-gen", allow: ["/v1/key/generate/rpc-*"] });
  await createClient(IdentityService, root).createIdentity({ id: userId, policy: "rpc-gen" });
  const user = createClient(KeyService, await transportFor(fx, userKey));
  assert.is((await user.generate({ name: "rpc-key" })).version, 1);
  assert.equal(await code(user.decrypt({ name: "rpc-key", ciphertext: g.ciphertext, context: ctx })), [Code.PermissionDenied, "not authorized: insufficient permissions"]);
  assert.is((await createClient(IdentityService, await transportFor(fx, userKey)).describeSelf({})).identity, userId);
  assert.equal(await code(createClient(ClusterService, await transportFor(fx, userKey)).getClusterStatus({})), [Code.PermissionDenied, "not authorized: insufficient permissions"]);
  assert.is((await createClient(ClusterService, root).getStatus({})).hsm?.kind, fx?.hsmKind);
});

connect("should refuse a Connect call without a client certificate", async ({ fx }) => {
  const ca = await readFile(fx?.certs.caFile ?? "");
  const keys = createClient(KeyService, createConnectTransport({ baseUrl: `https://127.0.0.1:${fx?.port}`, httpVersion: "1.1", nodeOptions: { ca } }));
  assert.equal(await code(keys.generate({ name: "x" })), [Code.Unauthenticated, "tls: client certificate is required"]);
});

connect("should stream audit events with the REST path an RPC is checked as", async ({ fx, kms }) => {
  const root = await transportFor(fx, kms?.rootApiKey ?? "");
  const abort = new AbortController();
  const stream = createClient(AuditService, root).watchAuditLog({}, { signal: abort.signal });
  const keys = createClient(KeyService, root);
  const first = (async () => {
    for await (const r of stream) {
      if (r.event?.request?.path === "/v1/key/describe/audited") return r.event;
    }
    return undefined;
  })();
  await keys.createKey({ name: "audited" });
  let event: Awaited<typeof first>;
  void first.then((e) => (event = e));
  // The stream is live once the server has it; describe until an event arrives.
  for (let i = 0; i < 200 && event === undefined; i++) await keys.describeKey({ name: "audited" });
  const e = await first;
  abort.abort();
  assert.is(e?.request?.enclave, "default");
  assert.is(e?.response?.code, 200);
  assert.match(e?.request?.identity ?? "", /^h1:/);
});

const idOf = (k: string) => identityOfSeed(parseApiKey(k) ?? new Uint8Array(32));
const hexOf = (id: string) => Buffer.from(id.slice(3), "base64url").toString("hex");
const denied: [Code, string] = [Code.PermissionDenied, "not authorized: insufficient permissions"];

connect("should hold a deny rule whatever spelling an RPC uses for the identity", async ({ fx, kms }) => {
  const root = await transportFor(fx, kms?.rootApiKey ?? "");
  const userKey = newApiKey();
  const victim = idOf(newApiKey());
  const other = idOf(newApiKey());
  await createClient(PolicyService, root).createPolicy({ name: "rpc-idm", allow: ["/v1/identity/*", "/v1/key/*"], deny: [`/v1/identity/delete/${hexOf(victim)}`, "/v1/key/delete/rpc-secret"] });
  const rootIds = createClient(IdentityService, root);
  await rootIds.createIdentity({ id: idOf(userKey), policy: "rpc-idm" });
  await rootIds.createIdentity({ id: victim });
  await rootIds.createIdentity({ id: other });
  await createClient(KeyService, root).createKey({ name: "rpc-secret" });
  const ids = createClient(IdentityService, await transportFor(fx, userKey));
  const hex = hexOf(victim);
  for (const spelling of [victim, hex, hex.toUpperCase(), `${hex.slice(0, 10).toUpperCase()}${hex.slice(10)}`]) {
    assert.equal(await code(ids.deleteIdentity({ id: spelling })), denied, spelling);
  }
  const refused = [`${victim}/`, `/${victim}`, `./${hex}`, `x/../${hex}`, `../delete/${victim}`, encodeURIComponent(victim), victim.replace(":", "%3A"), ` ${hex}`, `${hex}\n`, `${hex}\u0000`, "", `${victim}*`];
  for (const spelling of refused) {
    const [c] = await code(ids.deleteIdentity({ id: spelling }));
    assert.ok(c === Code.InvalidArgument || c === Code.PermissionDenied, `${JSON.stringify(spelling)} -> ${Code[c]}`);
  }
  assert.is((await rootIds.describeIdentity({ id: victim })).identity, victim, "the denied identity still exists");
  const keys = createClient(KeyService, await transportFor(fx, userKey));
  for (const name of ["./rpc-secret", "rpc-secret/", "x/../rpc-secret", "rpc-secret/.", "rpc%2Dsecret"]) {
    const [c] = await code(keys.deleteKey({ name }));
    assert.is(c, Code.InvalidArgument, name);
  }
  assert.equal(await code(keys.deleteKey({ name: "rpc-secret" })), denied);
  // The same canonical request allows what the policy allows.
  await ids.deleteIdentity({ id: hexOf(other).toUpperCase() });
  assert.equal(await code(rootIds.describeIdentity({ id: other })), [Code.NotFound, "identity does not exist"]);
});

connect("should let only root mint admins over Connect too", async ({ fx, kms }) => {
  const root = await transportFor(fx, kms?.rootApiKey ?? "");
  const userKey = newApiKey();
  await createClient(PolicyService, root).createPolicy({ name: "rpc-ids", allow: ["/v1/identity/*"] });
  await createClient(IdentityService, root).createIdentity({ id: idOf(userKey), policy: "rpc-ids" });
  const ids = createClient(IdentityService, await transportFor(fx, userKey));
  assert.equal(await code(ids.createIdentity({ id: idOf(newApiKey()), admin: true })), denied);
  assert.equal(await code(ids.createIdentity({ id: idOf(newApiKey()), policy: "rpc-gen" })), denied);
  await ids.createIdentity({ id: idOf(newApiKey()) });
});

connect("should stream to an enclave's watcher only its enclave's events, and end quietly", async ({ fx, kms }) => {
  const root = await transportFor(fx, kms?.rootApiKey ?? "");
  const watcher = newApiKey();
  await createClient(PolicyService, root).createPolicy({ name: "rpc-audit", allow: ["/v1/log/audit"] });
  await createClient(IdentityService, root).createIdentity({ id: idOf(watcher), policy: "rpc-audit" });
  const before = kms?.proc.output().length ?? 0;
  const abort = new AbortController();
  const stream = createClient(AuditService, await transportFor(fx, watcher)).watchAuditLog({}, { signal: abort.signal });
  const keys = createClient(KeyService, root);
  const marker = `rpc-marker-${Date.now()}`;
  const seen: { enclave: string; path: string }[] = [];
  let found = false;
  let markers = 0;
  const reading = (async () => {
    for await (const r of stream) {
      seen.push({ enclave: r.event?.request?.enclave ?? "", path: r.event?.request?.path ?? "" });
      // The second marker proves a whole round of hidden events happened while the stream was live.
      if (r.event?.request?.path.includes(marker) && ++markers === 2) {
        found = true;
        return;
      }
    }
  })();
  for (let i = 0; i < 200 && !found; i++) {
    await keys.createKey({ name: `rpc-hidden-${i}` }, { headers: { "kms-enclave": "other" } });
    await code(keys.describeKey({ name: `${marker}-${i}` }));
  }
  await reading;
  abort.abort();
  assert.ok(found);
  for (const e of seen) assert.is(e.enclave, "default", JSON.stringify(e));
  await new Promise((r) => setTimeout(r, 300));
  const logged = kms?.proc.output().slice(before) ?? "";
  assert.not.match(logged, /internal error|ERR_STREAM|at \S+ \(/, logged);
});

connect.run();
