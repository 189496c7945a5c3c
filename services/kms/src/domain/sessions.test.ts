import { initCrypto } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createSodiumCrypto } from "../adapters/sodium-crypto.js";
import { apply } from "./apply.js";
import type { Caller } from "./authz.js";
import { canonicalRequest } from "./canonical-request.js";
import type { Command, Payload } from "./command.js";
import { identityOfHash } from "./identity.js";
import { createKms } from "./kms.js";
import { createMemorySink } from "../../testing/memory-sink.js";
import { remember, sessionLimit } from "./sessions.js";
import { createEmptyState, type KmsState } from "./state.js";

const root = identityOfHash(new Uint8Array(32).fill(1));
const alice = identityOfHash(new Uint8Array(32).fill(2));
const material = { sealedKey: new Uint8Array([1]), sealedHmacKey: new Uint8Array([2]) };
const createKey = (name: string): Payload => ({ kind: "createKey", enclave: "e", name, algorithm: "XCHACHA20-POLY1305", material });
const cmd = (payload: Payload, requestId: string, issuedBy = root): Command => ({ requestId, issuedAt: "t", issuedBy, payload });

function withEnclave(): KmsState {
  const state = createEmptyState();
  apply(state, cmd({ kind: "createEnclave", name: "e" }, ""));
  return state;
}

const table = suite("kms domain: session table (exactly-once writes)");

table("a repeated create answers its first outcome, not 'already exists'", () => {
  const state = withEnclave();
  assert.equal(apply(state, cmd(createKey("k"), "r1")), { ok: true, version: 1 });
  assert.equal(apply(state, cmd(createKey("k"), "r1")), { ok: true, version: 1 });
  // A different request for the same key is a real conflict.
  assert.equal(apply(state, cmd(createKey("k"), "r2")), { ok: false, reason: "already_exists", message: "key already exists" });
});

table("a repeat never applies twice: a retried add-version adds one version", () => {
  const state = withEnclave();
  apply(state, cmd(createKey("k"), "c"));
  const add: Payload = { kind: "addKeyVersion", enclave: "e", name: "k", material };
  assert.equal(apply(state, cmd(add, "a")), { ok: true, version: 2 });
  assert.equal(apply(state, cmd(add, "a")), { ok: true, version: 2 });
  assert.is(state.enclaves.get("e")?.keys.get("k")?.maxVersion, 2);
});

table("request ids are per caller: another identity's id does not answer for it", () => {
  const state = withEnclave();
  assert.ok(apply(state, cmd(createKey("k"), "same", root)).ok);
  assert.equal(apply(state, cmd(createKey("k"), "same", alice)), { ok: false, reason: "already_exists", message: "key already exists" });
});

table("an id reused for a different write is refused, not answered with another write's outcome", () => {
  const state = withEnclave();
  apply(state, cmd(createKey("a"), "r"));
  const r = apply(state, cmd(createKey("b"), "r"));
  assert.equal(r, { ok: false, reason: "invalid_argument", message: "request id was already used for a different request" });
  assert.not.ok(state.enclaves.get("e")?.keys.has("b"));
});

table("failures are remembered too: a repeat of a failed write fails the same way", () => {
  const state = withEnclave();
  const del: Payload = { kind: "deleteKey", enclave: "e", name: "missing" };
  const first = apply(state, cmd(del, "d"));
  apply(state, cmd(createKey("missing"), "c"));
  assert.equal(apply(state, cmd(del, "d")), first, "the repeat does not delete the key created since");
  assert.ok(state.enclaves.get("e")?.keys.has("missing"));
});

table("the table is bounded and evicts oldest first, the same way on every replica", () => {
  const sessions = new Map<string, { target: string; result: { ok: true } }>();
  for (let i = 0; i <= sessionLimit; i++) remember(sessions, `id ${i}`, { target: "t", result: { ok: true } });
  assert.is(sessions.size, sessionLimit);
  assert.not.ok(sessions.has("id 0"));
  assert.ok(sessions.has(`id ${sessionLimit}`));
});

table("a table filled elsewhere (decoded from a snapshot) evicts in its own order, and keeps doing so past many limits", () => {
  const ok = { target: "t", result: { ok: true } } as const;
  // As a decoder builds it: a plain Map in the snapshot's order, full.
  const decoded = new Map<string, typeof ok>();
  for (let i = 0; i < sessionLimit; i++) decoded.set(`old ${(i * 7919) % sessionLimit}`, ok);
  const expected = [...decoded.keys()];
  for (let i = 0; i < 2 * sessionLimit + 5; i++) {
    remember(decoded, `new ${i}`, ok);
    expected.push(`new ${i}`);
  }
  assert.is(decoded.size, sessionLimit);
  assert.equal([...decoded.keys()], expected.slice(-sessionLimit));
  // A key remembered again (never by apply, which answers a repeat from the table) keeps its place.
  remember(decoded, `new ${sessionLimit + 10}`, ok);
  remember(decoded, "last", ok);
  assert.is(decoded.size, sessionLimit);
  assert.equal([...decoded.keys()], [...expected.slice(-sessionLimit + 1), "last"]);
});

table("a retried delete whose first attempt applied answers success, not 'key does not exist'", async () => {
  await initCrypto();
  const state = createEmptyState();
  const kms = createKms({ state: () => state, sink: createMemorySink(state), crypto: createSodiumCrypto(new Uint8Array(32).fill(9)), rootIdentity: root });
  const at = (route: string, params: Record<string, string>, requestId?: string): Caller => ({ ...canonicalRequest(route, params, "default"), identity: root, ...(requestId ? { requestId } : {}) });
  await kms.admin.createEnclave(at("/v1/enclave/create/:name", { name: "default" }), "default");
  await kms.keys.create(at("/v1/key/create/:name", { name: "k" }, "c1"), "k", {});
  await kms.keys.create(at("/v1/key/create/:name", { name: "k" }, "c1"), "k", {});
  await kms.keys.delete(at("/v1/key/delete/:name", { name: "k" }, "d1"), "k", undefined);
  await kms.keys.delete(at("/v1/key/delete/:name", { name: "k" }, "d1"), "k", undefined);
  try {
    await kms.keys.delete(at("/v1/key/delete/:name", { name: "k" }, "d2"), "k", undefined);
    assert.unreachable("a new delete of a deleted key is 'does not exist'");
  } catch (err) {
    assert.is((err as Error).message, "key does not exist");
  }
});

table.run();
