import { test } from "uvu";
import * as assert from "uvu/assert";
import { apply } from "./apply.js";
import { recordsIn, snapshotInterval } from "./snapshot-cadence.js";
import { createEmptyState } from "./state.js";

const meta = { requestId: "", issuedAt: "2026-01-01T00:00:00Z", issuedBy: `h1:${"A".repeat(43)}` };
const material = { sealedKey: new Uint8Array(73), sealedHmacKey: new Uint8Array(73) };

test("the interval is the floor for a small keyspace and a sixteenth of the records for a large one", () => {
  const state = createEmptyState();
  apply(state, { ...meta, payload: { kind: "createEnclave", name: "default" } });
  apply(state, { ...meta, payload: { kind: "createEnclave", name: "other" } });
  assert.is(snapshotInterval(state, 1000), 1000);
  for (let i = 0; i < 40_000; i++) apply(state, { ...meta, payload: { kind: "createKey", enclave: i % 2 ? "default" : "other", name: `k-${i}`, algorithm: "AES256", material } });
  // Keys of every enclave count, so the interval grows with the whole keyspace.
  assert.is(recordsIn(state), 40_000);
  assert.is(snapshotInterval(state, 1000), 2500);
  assert.is(snapshotInterval(state, 10_000), 10_000);
});

test.run();
