import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { initCrypto } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { apply } from "../../domain/apply.js";
import { createSoftwareHsm } from "../hsm/software-hsm.js";
import { createLocalNode } from "./local-node.js";
import type { LocalStore } from "./local-store.js";
import { openDataDir } from "./open-data-dir.js";

const node = suite("single-node snapshot beside writes (issue 26)");
const hsmKey = new Uint8Array(32).fill(9);
const material = { sealedKey: new Uint8Array([1, 2, 3]), sealedHmacKey: new Uint8Array([4]) };

async function openStore(dir: string): Promise<LocalStore> {
  const opened = await openDataDir(dir, createSoftwareHsm(hsmKey), { mode: "single", enclaves: [], now: () => "2024-01-01T00:00:00Z" });
  if (!opened.local) throw new Error("no local store");
  return opened.local;
}

node("should acknowledge writes while a snapshot is still being written, and keep them all across a restart", async () => {
  await initCrypto();
  const dir = join(await mkdtemp(join(tmpdir(), "kms-snap-beside-")), "data");
  try {
    const store = await openStore(dir);
    // The snapshot's file is written at once, but its completion is held back until `release`.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let snapshots = 0;
    const gated: LocalStore = { ...store, writeSnapshot: (s) => ((snapshots += 1), store.writeSnapshot(s).then((i) => gate.then(() => i))) };
    const n = createLocalNode(gated, { snapshotEvery: 4 });
    await n.propose({ kind: "createEnclave", name: "default" }, "");
    const create = (i: number) => n.propose({ kind: "createKey", enclave: "default", name: `k${i}`, algorithm: "A", material }, "me");
    for (let i = 0; i < 3; i++) await create(i);
    assert.is(snapshots, 1, "the 4th entry starts a snapshot");

    // Only a safety net: on the old path the writes below wait for the snapshot, which this opens.
    let openedBySafetyNet = false;
    const safety = setTimeout(() => ((openedBySafetyNet = true), release()), 5000);
    const during = await Promise.all(Array.from({ length: 20 }, (_, i) => create(100 + i)));
    assert.ok(during.every((r) => r.ok));
    assert.not.ok(openedBySafetyNet, "writes waited for the snapshot to finish");
    assert.is(snapshots, 1, "no second snapshot while one runs");
    clearTimeout(safety);
    release();
    await n.close();

    // Reopened: the snapshot (taken at entry 4) plus a log that kept the 20 entries after it.
    const reopened = await openStore(dir);
    assert.is(reopened.snapshot.appliedIndex, 4n);
    assert.equal(
      reopened.entries.map((e) => e.index),
      Array.from({ length: 20 }, (_, i) => 5n + BigInt(i)),
    );
    const again = createLocalNode(reopened);
    assert.is(again.state().enclaves.get("default")?.keys.size, 23);
    assert.is(again.state().appliedIndex, 24n);
    await again.propose({ kind: "deleteKey", enclave: "default", name: "k0" }, "me");
    await again.close();
    const third = createLocalNode(await openStore(dir));
    assert.is(third.state().enclaves.get("default")?.keys.size, 22);
    await third.close();
  } finally {
    await rm(dirname(dir), { recursive: true, force: true });
  }
});

node("should snapshot after a sixteenth of the records by default, not after every 1,000 entries", async () => {
  await initCrypto();
  const dir = join(await mkdtemp(join(tmpdir(), "kms-snap-every-")), "data");
  try {
    const store = await openStore(dir);
    // 32,000 keys already in the state: a snapshot is due after 2,000 entries.
    const meta = { requestId: "", issuedAt: "2024-01-01T00:00:00.000Z", issuedBy: "me" };
    apply(store.snapshot, { ...meta, payload: { kind: "createEnclave", name: "default" } });
    for (let i = 0; i < 32_000; i++) apply(store.snapshot, { ...meta, payload: { kind: "createKey", enclave: "default", name: `old-${i}`, algorithm: "A", material } });
    // As if they had come with the snapshot: the log goes on from where it is.
    store.snapshot.appliedIndex = 0n;
    let snapshots = 0;
    const n = createLocalNode({ ...store, writeSnapshot: (s) => ((snapshots += 1), store.writeSnapshot(s)) });
    const create = (i: number) => n.propose({ kind: "createKey", enclave: "default", name: `k${i}`, algorithm: "A", material }, "me");
    const batch = (from: number, count: number) => Promise.all(Array.from({ length: count }, (_, i) => create(from + i)));
    await batch(0, 1500);
    assert.is(snapshots, 0, "1,500 entries over 32,000 records");
    await batch(1500, 700);
    assert.is(snapshots, 1, "2,200 entries over 34,200 records");
    await n.close();
  } finally {
    await rm(dirname(dir), { recursive: true, force: true });
  }
});

node.run();
