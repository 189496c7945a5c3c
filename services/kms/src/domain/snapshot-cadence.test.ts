import { test } from "uvu";
import * as assert from "uvu/assert";
import { apply } from "./apply.js";
import { clusterSnapshotFloor, recordsIn, snapshotInterval } from "./snapshot-cadence.js";
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

test("a cluster's floor keeps no more entries between snapshots than a million keys already do", () => {
  // Those entries stay in the log and in memory and are replayed at start-up: the
  // million-key start-up (issue 26) was measured with a sixteenth of a million.
  assert.ok(clusterSnapshotFloor <= 1_000_000 / 16);
  // Raised from 10,000, where each write of a cluster holding 160,000 keys paid for 16 records of snapshot.
  assert.ok(clusterSnapshotFloor >= 50_000);
});

test.run();
