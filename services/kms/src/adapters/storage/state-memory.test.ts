import { suite } from "uvu";
import * as assert from "uvu/assert";
import { apply } from "../../domain/apply.js";
import { createEmptyState } from "../../domain/state.js";
import { decodeState, encodeState } from "./state-codec.js";

const memory = suite("decoded state memory (issue 26)");

memory("should pack decoded key material into shared buffers, bytes unchanged", () => {
  const state = createEmptyState();
  const meta = { requestId: "", issuedAt: "2026-01-01T00:00:00Z", issuedBy: `h1:${"B".repeat(43)}` };
  apply(state, { ...meta, payload: { kind: "createEnclave", name: "default" } });
  for (let i = 0; i < 2000; i++) {
    const material = { sealedKey: new Uint8Array(73).fill(i % 251), sealedHmacKey: new Uint8Array(73).fill((i * 7) % 251) };
    apply(state, { ...meta, payload: { kind: "createKey", enclave: "default", name: `k${i}`, algorithm: "A", material } });
  }
  const decoded = decodeState(encodeState(state));
  assert.equal(decoded, state);
  const buffers = new Set<ArrayBufferLike>();
  for (const key of decoded.enclaves.get("default")?.keys.values() ?? []) {
    for (const v of key.versions.values()) buffers.add(v.material.sealedKey.buffer).add(v.material.sealedHmacKey.buffer);
  }
  // 4,000 sealed keys of 73 bytes: a few 256 KiB slabs, not one ArrayBuffer (and its bookkeeping) each.
  assert.ok(buffers.size <= 8, `${buffers.size} buffers for 4000 sealed keys`);
});

memory.run();
