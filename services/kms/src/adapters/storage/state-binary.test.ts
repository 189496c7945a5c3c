import { suite } from "uvu";
import * as assert from "uvu/assert";
import { apply } from "../../domain/apply.js";
import type { Payload } from "../../domain/command.js";
import { OneVersion } from "../../domain/packed-version.js";
import { captureState } from "../../domain/state-capture.js";
import { createEmptyState, type KmsState } from "../../domain/state.js";
import { createStateDecoder, decodeState, decodeStateSliced, encodeCaptureStream, encodedLength, encodeState } from "./state-codec.js";
import { encodeStateJson } from "./state-json.js";

const binary = suite("state version 3 (issue 26)");

const material = (n: number, size = 73) => ({ sealedKey: new Uint8Array(size).fill(n), sealedHmacKey: new Uint8Array(size).fill(n + 1) });
let clock = Date.parse("2026-03-01T10:00:00.000Z");
const run = (state: KmsState, payload: Payload, o: { requestId?: string; at?: string; by?: string } = {}): void => {
  apply(state, { requestId: o.requestId ?? "", issuedAt: o.at ?? new Date((clock += 7)).toISOString(), issuedBy: o.by ?? "h1:creator", payload });
};

/** Every kind of record, packed and unpacked keys, odd times and names, two enclaves. */
function sample(): KmsState {
  const state = createEmptyState();
  run(state, { kind: "createEnclave", name: "default" });
  run(state, { kind: "createEnclave", name: "other" }, { at: "t-not-iso", by: "" });
  for (let i = 0; i < 40; i++) run(state, { kind: "createKey", enclave: "default", name: `k-${i}`, algorithm: "XCHACHA20-POLY1305", material: material(i) }, { by: `h1:user-${i % 3}` });
  run(state, { kind: "addKeyVersion", enclave: "default", name: "k-1", material: material(90) });
  run(state, { kind: "createKey", enclave: "default", name: "hand-made-time", algorithm: "A", material: material(3, 8) }, { at: "2026-01-01T00:00:00Z" });
  run(state, { kind: "importKey", enclave: "default", name: "big-material", algorithm: "A", material: material(4, 300) });
  run(state, { kind: "createPolicy", enclave: "default", name: "p", allow: ["/v1/key/*", "/v1/key/ü+%#"], deny: [] });
  run(state, { kind: "createIdentity", enclave: "default", identity: "h1:a", admin: false, policy: "p" });
  run(state, { kind: "createIdentity", enclave: "other", identity: "h1:b", admin: true, policy: "" });
  run(state, { kind: "createKey", enclave: "other", name: "x", algorithm: "A", material: material(20) }, { requestId: "req-1" });
  run(state, { kind: "deleteKey", enclave: "other", name: "missing" }, { requestId: "req-2" });
  return state;
}

binary("a state decodes to what was encoded, fed in pieces of any size", async () => {
  const state = sample();
  const bytes = encodeState(state);
  assert.equal(decodeState(bytes), state);
  assert.equal(await decodeStateSliced(bytes), state);
  for (const size of [1, 2, 5, 7, 64, 1000]) {
    const d = createStateDecoder();
    for (let at = 0; at < bytes.length; at += size) d.push(bytes.slice(at, at + size));
    assert.equal(d.end(), state, `pieces of ${size} bytes`);
  }
  // The counting pass gives the length the writing pass writes, streamed or whole.
  const c = captureState(state);
  assert.is(await encodedLength(c), bytes.length);
  const pieces: Uint8Array[] = [];
  for await (const p of encodeCaptureStream(c)) pieces.push(p);
  assert.equal(new Uint8Array(Buffer.concat(pieces)), bytes);
  // Reusing piece buffers (the snapshot sealer copies each piece before it asks for the next): the same bytes.
  const copied: Uint8Array[] = [];
  const big = sample();
  for (let i = 0; i < 2000; i++) run(big, { kind: "createKey", enclave: "default", name: `bulk-${i}`, algorithm: "A", material: material(i % 200) });
  for await (const p of encodeCaptureStream(captureState(big), true)) copied.push(new Uint8Array(p));
  assert.equal(new Uint8Array(Buffer.concat(copied)), encodeState(big));
  assert.equal([...decodeState(bytes).sessions.keys()], ["h1:creator req-1", "h1:creator req-2"]);
});

binary("keys with one version are packed, read as a Map, and hand out one version object", () => {
  const state = sample();
  const keys = decodeState(encodeState(state)).enclaves.get("default")?.keys;
  for (const s of [state, decodeState(encodeState(state))]) {
    const k = s.enclaves.get("default")?.keys;
    assert.ok(k?.get("k-0")?.versions instanceof OneVersion, "a created key is packed");
    assert.not.ok(k?.get("k-1")?.versions instanceof OneVersion, "a rotated key keeps a Map");
    assert.not.ok(k?.get("hand-made-time")?.versions instanceof OneVersion, "a time that is not exact ISO keeps a Map");
  }
  const v = keys?.get("k-5")?.versions;
  assert.is(v?.get(1), v?.get(1));
  assert.is(v?.get(1)?.material, v?.get(1)?.material);
  assert.equal(v?.get(1)?.material, material(5));
  assert.is(v?.get(1)?.createdBy, "h1:user-2");
  assert.equal([...(v?.keys() ?? [])], [1]);
  assert.is(v?.get(2), undefined);
  assert.equal(v, new Map([[1, v?.get(1)]]));
});

binary("older bodies (version 2 lines) still decode, and write back as version 3", () => {
  const state = sample();
  const v2 = encodeStateJson(state);
  assert.is(v2[0], 0x7b);
  assert.equal(decodeState(v2), state);
  assert.equal(decodeState(encodeState(decodeState(v2))), state);
});

/** Offsets of the records of a version 3 body: [start, end) each, the end record last. */
function records(bytes: Uint8Array): [number, number][] {
  const view = Buffer.from(bytes);
  const out: [number, number][] = [];
  for (let at = 16; at < bytes.length; at += 5 + view.readUInt32BE(at + 1)) out.push([at, at + 5 + view.readUInt32BE(at + 1)]);
  return out;
}

binary("a damaged body never decodes, least of all as a smaller state", () => {
  const bytes = encodeState(sample());
  const spans = records(bytes);
  const refuses = (b: Uint8Array, what: string): void => {
    assert.throws(() => decodeState(b), undefined, what);
  };
  const keyRecords = spans.filter(([s]) => bytes[s] === 4);
  assert.ok(keyRecords.length > 40);
  for (const [s, e] of keyRecords.slice(0, 5)) refuses(new Uint8Array(Buffer.concat([bytes.subarray(0, s), bytes.subarray(e)])), `key record at ${s} dropped`);
  for (const [s] of spans) refuses(bytes.subarray(0, s), `cut at ${s}`);
  refuses(bytes.subarray(0, bytes.length - 1), "cut in the end record");
  refuses(new Uint8Array(Buffer.concat([bytes, bytes.subarray(...(spans[0] as [number, number]))])), "a record after the end");
  for (const [s] of spans.slice(0, 8)) {
    for (const delta of [1, -1]) {
      const b = Buffer.from(bytes);
      b.writeUInt32BE(b.readUInt32BE(s + 1) + delta, s + 1);
      refuses(b, `length at ${s} off by ${delta}`);
    }
    const b = Buffer.from(bytes);
    b[s] = 77;
    refuses(b, `unknown kind at ${s}`);
  }
  const wrongMagic = Buffer.from(bytes);
  wrongMagic[3] = (wrongMagic[3] ?? 0) ^ 1;
  refuses(wrongMagic, "wrong magic");
});

binary.run();
