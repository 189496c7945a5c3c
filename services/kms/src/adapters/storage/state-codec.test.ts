import { test } from "uvu";
import * as assert from "uvu/assert";
import { apply } from "../../domain/apply.js";
import type { Payload } from "../../domain/command.js";
import { captureState, type StateCapture } from "../../domain/state-capture.js";
import { createEmptyState, type KmsState } from "../../domain/state.js";
import { decodeState, decodeStateSliced, encodeState, streamCapture } from "./state-codec.js";

/** A snapshot file's body as the cluster streams it (pieces reused: each is copied), checked against the length it announced. */
async function streamed(c: StateCapture): Promise<Uint8Array> {
  const s = await streamCapture(c);
  const pieces: Uint8Array[] = [];
  for await (const p of s.pieces) pieces.push(new Uint8Array(p));
  const bytes = new Uint8Array(Buffer.concat(pieces));
  assert.is(bytes.length, s.length, "the announced length");
  return bytes;
}

const material = (n: number) => ({ sealedKey: new Uint8Array(8).fill(n), sealedHmacKey: new Uint8Array(8).fill(n + 1) });
const run = (state: KmsState, payload: Payload, requestId = ""): void => {
  apply(state, { requestId, issuedAt: `t${state.appliedIndex}`, issuedBy: "me", payload });
};

function sample(): KmsState {
  const state = createEmptyState();
  run(state, { kind: "createEnclave", name: "default" });
  run(state, { kind: "createEnclave", name: "other" });
  for (let i = 0; i < 5; i++) run(state, { kind: "createKey", enclave: "default", name: `k${i}`, algorithm: "AES256", material: material(i) });
  run(state, { kind: "addKeyVersion", enclave: "default", name: "k1", material: material(9) });
  run(state, { kind: "createPolicy", enclave: "default", name: "p", allow: ["/v1/key/*"], deny: [] });
  run(state, { kind: "createPolicy", enclave: "default", name: "q", allow: [], deny: ["/v1/key/delete/*"] });
  run(state, { kind: "createIdentity", enclave: "default", identity: "h1:a", admin: false, policy: "p" });
  run(state, { kind: "assignPolicy", enclave: "default", name: "q", identity: "h1:a" });
  run(state, { kind: "createKey", enclave: "other", name: "x", algorithm: "AES256", material: material(20) }, "req-1");
  run(state, { kind: "deleteKey", enclave: "other", name: "missing" }, "req-2");
  return state;
}

test("a state decodes to what was encoded, sliced or not", async () => {
  const state = sample();
  const bytes = encodeState(state);
  assert.equal(decodeState(bytes), state);
  assert.equal(await decodeStateSliced(bytes), state);
  assert.equal(await streamed(captureState(state)), bytes);
  // The session table survives in order (its order is the eviction order).
  assert.equal([...decodeState(bytes).sessions.keys()], ["me req-1", "me req-2"]);
  assert.equal(decodeState(bytes).sessions.get("me req-2")?.result, { ok: false, reason: "not_found", message: "key does not exist" });
});

test("a streamed capture announces its length and gives the encoding's bytes, small or large", async () => {
  const small = sample();
  const big = sample();
  // Long policies and names: records longer than a 64 KiB piece, and a body of several MB.
  run(big, { kind: "createPolicy", enclave: "default", name: "long", allow: Array.from({ length: 9000 }, (_, i) => `/v1/key/generate/long-${i}-*`), deny: [] });
  for (let i = 0; i < 30000; i++) run(big, { kind: "createKey", enclave: "other", name: `key-${i}-${"n".repeat(i % 40)}`, algorithm: "AES256", material: material(i % 200) });
  for (const state of [small, big]) {
    assert.equal(await streamed(captureState(state)), encodeState(state));
  }
});

test("a capture stays as of its index while later commands change every kind of record", async () => {
  const state = sample();
  const before = encodeState(state);
  const capture = captureState(state);
  run(state, { kind: "addKeyVersion", enclave: "default", name: "k2", material: material(30) });
  run(state, { kind: "deleteKeyVersion", enclave: "default", name: "k1", version: 1 });
  run(state, { kind: "deleteKey", enclave: "default", name: "k0" });
  run(state, { kind: "createKey", enclave: "default", name: "k9", algorithm: "AES256", material: material(40) });
  run(state, { kind: "unassignPolicy", enclave: "default", name: "p", identity: "h1:a" });
  run(state, { kind: "deletePolicy", enclave: "default", name: "q" });
  run(state, { kind: "deleteEnclave", name: "other" });
  run(state, { kind: "createKey", enclave: "default", name: "y", algorithm: "AES256", material: material(50) }, "client-2");
  assert.equal(await streamed(capture), before);
  const now = decodeState(encodeState(state));
  assert.equal([...(now.enclaves.get("default")?.identities.get("h1:a")?.policies ?? [])], []);
  assert.equal([...(now.enclaves.get("default")?.keys.get("k1")?.versions.keys() ?? [])], [2]);
  assert.is(now.enclaves.get("default")?.keys.get("k2")?.maxVersion, 2);
});

test("a first-version snapshot (one JSON document) still decodes", () => {
  const b64 = (n: number): string => Buffer.from(new Uint8Array(8).fill(n)).toString("base64");
  const v1 = {
    v: 1,
    appliedIndex: "7",
    sessions: [["local-1", "3", { ok: true, version: 1 }]],
    enclaves: [{
      name: "default", createdAt: "t", createdBy: "",
      keys: [{ name: "k", algorithm: "AES256", maxVersion: 2, versions: [{ version: 2, k: b64(1), h: b64(2), createdAt: "t2", createdBy: "me" }] }],
      policies: [{ name: "p", allow: ["/v1/key/*"], deny: [], createdAt: "t", createdBy: "me" }],
      identities: [{ identity: "h1:a", admin: false, policies: ["p"], createdAt: "t", createdBy: "me" }],
    }],
  };
  const state = decodeState(new TextEncoder().encode(JSON.stringify(v1)));
  assert.is(state.appliedIndex, 7n);
  // First-version sessions were per-proposer sequences: nothing reads them now.
  assert.is(state.sessions.size, 0);
  const key = state.enclaves.get("default")?.keys.get("k");
  assert.is(key?.maxVersion, 2);
  assert.equal(key?.versions.get(2)?.material, material(1));
  assert.equal([...(state.enclaves.get("default")?.identities.get("h1:a")?.policies ?? [])], ["p"]);
  // Written again in the current version, it reads back the same.
  assert.equal(decodeState(encodeState(state)), state);
});

test.run();
