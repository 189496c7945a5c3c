import { initCrypto } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createSodiumCrypto } from "../adapters/sodium-crypto.js";
import type { Caller } from "./authz.js";
import { canonicalRequest } from "./canonical-request.js";
import { associatedData, decodeCiphertext } from "./ciphertext.js";
import { identityOfHash, parseIdentity } from "./identity.js";
import { createKms, type Kms } from "./kms.js";
import { createMemorySink } from "../../testing/memory-sink.js";
import { isValidName, pageOf } from "./names.js";
import { isAllowed } from "./policy.js";
import { createEmptyState, type KmsState } from "./state.js";

const root = identityOfHash(new Uint8Array(32).fill(1));
const alice = identityOfHash(new Uint8Array(32).fill(2));
const bob = identityOfHash(new Uint8Array(32).fill(3));
// Root ignores the path, so most calls pass a placeholder; policy checks use `at`.
const as = (identity: string | undefined, path: string, enclave = "default"): Caller => {
  const [, area, op, value] = path.split("/").slice(1);
  const placeholder = area === "identity" ? ":id" : ":name";
  return op === undefined || value === undefined || path === "/v1/identity/self/describe"
    ? { identity, enclave, path, route: path, params: {} }
    : { ...canonicalRequest(`/v1/${area}/${op}/${placeholder}`, { [placeholder.slice(1)]: value }, enclave), identity };
};
const rootAt = (path: string, enclave = "default") => as(root, path, enclave);

async function setup(): Promise<{ kms: Kms; state: KmsState }> {
  await initCrypto();
  const state = createEmptyState();
  const sink = createMemorySink(state, () => "2026-01-01T00:00:00Z");
  const kms = createKms({ state: () => state, sink, crypto: createSodiumCrypto(new Uint8Array(32).fill(9)), rootIdentity: root });
  await kms.admin.createEnclave(rootAt("/v1/enclave/create/default"), "default");
  await kms.admin.createEnclave(rootAt("/v1/enclave/create/other"), "other");
  return { kms, state };
}

const pure = suite("kms domain: pure rules");

pure("should validate names as KES does", () => {
  for (const ok of ["a", "A9", "my-key", "my_key", "_a", "a".repeat(80)]) assert.ok(isValidName(ok), ok);
  for (const bad of ["", "_", "-a", "a-", "a".repeat(81), "a/b", "a.b", "..", "a b", "ä"]) assert.not.ok(isValidName(bad), bad);
});

pure("should page sorted names with prefix patterns", () => {
  const names = ["b", "app-2", "app-1", "c"];
  assert.equal(pageOf(names, "*", "", 0).items, ["app-1", "app-2", "b", "c"]);
  assert.equal(pageOf(names, "app-*", "", 0).items, ["app-1", "app-2"]);
  assert.equal(pageOf(names, "b", "", 0).items, ["b"]);
  assert.equal(pageOf(names, "*", "", 2), { items: ["app-1", "app-2"], continueAt: "b" });
  assert.equal(pageOf(names, "*", "b", 2), { items: ["b", "c"], continueAt: "" });
  assert.equal(pageOf(names, "a*p", "", 0).items, []);
});

pure("should let any deny win over allows :: several policies", () => {
  const a = { allow: ["/v1/key/generate/app-*"], deny: [] };
  const d = { allow: [], deny: ["/v1/key/generate/app-secret"] };
  assert.ok(isAllowed([a], "/v1/key/generate/app-1"));
  assert.not.ok(isAllowed([a], "/v1/key/generate/other"));
  assert.not.ok(isAllowed([a, d], "/v1/key/generate/app-secret"));
  assert.not.ok(isAllowed([], "/v1/key/generate/app-1"));
  assert.ok(isAllowed([{ allow: ["/v1/key/list/*"], deny: [] }], "/v1/key/list/*"));
});

pure("should accept the KES hex identity form", () => {
  const hex = "ea9826089311fe44d7590408ede9150f7c637b6cab0a91ee6fe1aa5d9fb366f6";
  const h1 = parseIdentity(hex);
  assert.ok(h1?.startsWith("h1:"));
  assert.is(parseIdentity(h1 ?? ""), h1);
  assert.is(parseIdentity("h1:short"), undefined);
});

pure("should build the contract's associated data", () => {
  const ad = associatedData(2, "ab", "k", new Uint8Array([7]));
  assert.equal([...ad], [1, 0, 0, 0, 2, 2, 97, 98, 1, 107, 7]);
});

pure.run();

const keys = suite("kms domain: keys");

keys("should create, describe, rotate and decrypt old versions", async () => {
  const { kms } = await setup();
  const c = rootAt("/v1/key/x");
  assert.is(await kms.keys.create(c, "k", {}), 1);
  await kms.keys.create(c, "k", {}).then(() => assert.unreachable(), (e: Error) => assert.is(e.message, "key already exists"));
  const old = kms.keys.encrypt(c, "k", new Uint8Array([1, 2, 3]), new Uint8Array(0));
  assert.is(await kms.keys.create(c, "k", { addVersion: true }), 2);
  const fresh = kms.keys.encrypt(c, "k", new Uint8Array([4]), new Uint8Array(0));
  assert.is(fresh.version, 2);
  assert.is(decodeCiphertext(fresh.ciphertext).version, 2);
  assert.equal([...kms.keys.decrypt(c, "k", old.ciphertext, new Uint8Array(0)).plaintext], [1, 2, 3]);
  assert.equal(kms.keys.describe(c, "k", undefined).versions, [1, 2]);
  assert.is(kms.keys.describe(c, "k", 1).version, 1);
  assert.throws(() => kms.keys.describe(c, "k", 7), /key version does not exist/);
  await kms.keys.delete(c, "k", 1);
  assert.throws(() => kms.keys.decrypt(c, "k", old.ciphertext, new Uint8Array(0)), /not authentic/);
  await kms.keys.delete(c, "k", 2);
  assert.throws(() => kms.keys.describe(c, "k", undefined), /key does not exist/);
});

keys("should bind enclave, name and context", async () => {
  const { kms } = await setup();
  const a = rootAt("/x");
  const b = rootAt("/x", "other");
  await kms.keys.create(a, "k", {});
  await kms.keys.create(a, "k2", {});
  await kms.keys.create(b, "k", {});
  const ctx = new Uint8Array([1]);
  const g = kms.keys.generate(a, "k", ctx, 32);
  assert.is(g.plaintext.length, 32);
  assert.equal(kms.keys.decrypt(a, "k", g.ciphertext, ctx).plaintext, g.plaintext);
  assert.throws(() => kms.keys.decrypt(a, "k", g.ciphertext, new Uint8Array([2])), /not authentic/);
  assert.throws(() => kms.keys.decrypt(a, "k2", g.ciphertext, ctx), /not authentic/);
  assert.throws(() => kms.keys.decrypt(b, "k", g.ciphertext, ctx), /not authentic/);
  assert.throws(() => kms.keys.decrypt(a, "k", g.ciphertext.subarray(0, 44), ctx), /not authentic/);
  assert.throws(() => kms.keys.describe(rootAt("/x", "other"), "k2", undefined), /key does not exist/);
  assert.is(kms.keys.hmac(a, "k", new Uint8Array([1])).hmac.length, 32);
});

keys("should validate import input", async () => {
  const { kms } = await setup();
  const c = rootAt("/x");
  await kms.keys.import(c, "bad", new Uint8Array(31), undefined).then(() => assert.unreachable(), (e: Error) => assert.is(e.message, "invalid key size"));
  await kms.keys.import(c, "bad", new Uint8Array(32), "AES").then(() => assert.unreachable(), (e: Error) => assert.is(e.message, "algorithm 'AES' is not supported"));
  await kms.keys.import(c, "good", new Uint8Array(32).fill(5), undefined);
  assert.is(kms.keys.describe(c, "good", undefined).version, 1);
});

keys.run();

const authz = suite("kms domain: authorization");

authz("should apply the policy matrix", async () => {
  const { kms } = await setup();
  await kms.keys.create(rootAt("/x"), "app-1", {});
  await kms.admin.createPolicy(rootAt("/x"), "gen", { allow: ["/v1/key/generate/app-*", "/v1/key/describe/*"], deny: ["/v1/key/describe/app-1"] });
  await kms.admin.createIdentity(rootAt("/x"), alice, { policy: "gen" });
  await kms.admin.createIdentity(rootAt("/x"), bob, {});
  const gen = (id: string | undefined) => () => kms.keys.generate(as(id, "/v1/key/generate/app-1"), "app-1", new Uint8Array(0), 32);
  assert.ok(gen(alice)().ciphertext);
  assert.throws(gen(bob), /not authorized: insufficient permissions/);
  assert.throws(gen(undefined), /tls: client certificate is required/);
  assert.throws(() => kms.keys.describe(as(alice, "/v1/key/describe/app-1"), "app-1", undefined), /not authorized/);
  assert.throws(() => kms.keys.generate(as(alice, "/v1/key/generate/app-1", "other"), "app-1", new Uint8Array(0), 32), /not authorized/);
  assert.is(kms.admin.describeSelf(as(bob, "/v1/identity/self/describe")).identity, bob);
  assert.equal(kms.admin.describeSelf(as(alice, "/v1/identity/self/describe")).deny, ["/v1/key/describe/app-1"]);
  await kms.admin.createIdentity(rootAt("/x"), identityOfHash(new Uint8Array(32).fill(4)), { admin: true });
  const admin = identityOfHash(new Uint8Array(32).fill(4));
  await kms.keys.create(as(admin, "/v1/key/create/a2"), "a2", {});
  await kms.admin.createEnclave(as(admin, "/v1/enclave/create/e"), "e").then(() => assert.unreachable(), (e: Error) => assert.match(e.message, /not authorized/));
  await kms.admin.assignPolicy(rootAt("/x"), "gen", bob, true);
  assert.ok(gen(bob)().ciphertext);
  await kms.admin.deletePolicy(rootAt("/x"), "gen");
  assert.throws(gen(alice), /not authorized/);
});

authz.run();
