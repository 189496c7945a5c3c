import { createHash } from "node:crypto";
import { mkdtemp, readFile, rename, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initCrypto } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Snapshot } from "../domain/types.js";
import { createFileLogStore } from "./file-log-store.js";
import { damageOf } from "./file-log-store-damage.js";
import { isFileSnapshotData, openSnapshotFileData, snapshotChecksum } from "./snapshot-file-data.js";
import { snapshotFileName, snapshotTag, writeSnapshotFile } from "./snapshot-file.js";

const held = suite("a snapshot's data read back from its file (issue 26)");
const key = new Uint8Array(32).fill(3);
const storeId = new Uint8Array(16).fill(4);
const expect = { tag: snapshotTag, storeId, key };
const configuration = { voters: [{ id: "a", address: "" }], learners: [] };
const snapshotOf = (index: number, n: number): Snapshot => ({ meta: { index, term: 2, configuration }, data: Uint8Array.from({ length: n }, (_, i) => (i * 7 + index) % 251) });
const sha = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");
const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

async function written(snap: Snapshot, chunkBytes = 64): Promise<{ dir: string; path: string }> {
  await initCrypto();
  const dir = await mkdtemp(join(tmpdir(), "snapshot-data-"));
  await writeSnapshotFile(dir, key, snap, storeId, { chunkBytes });
  return { dir, path: join(dir, snapshotFileName) };
}

held("should read every range as the data, across chunk edges, and take the checksum as it reads in order", async () => {
  const snap = snapshotOf(40, 1000);
  const { dir, path } = await written(snap);
  try {
    const data = openSnapshotFileData(path, snapshotFileName, expect, snap.meta);
    if (!data) throw new Error("not opened");
    assert.is(data.length, 1000);
    for (const [b, e] of [[0, 1000], [0, 0], [5, 6], [60, 70], [63, 64], [64, 200], [999, 1000], [990, 5000], [-3, 10]] as const) {
      assert.equal([...data.subarray(b, e)], [...snap.data.subarray(Math.max(0, b), e)], `[${b}, ${e})`);
    }
    assert.is(hex(snapshotChecksum(data)), sha(snap.data));
    data.close();
    assert.throws(() => data.subarray(500, 600), /after close/);
    // Read in transfer order, then the checksum; and the checksum with nothing read yet.
    for (const order of [[0, 300, 600, 900], []]) {
      const again = openSnapshotFileData(path, snapshotFileName, expect, snap.meta);
      if (!again) throw new Error("not opened");
      for (const at of order) again.subarray(at, at + 300);
      assert.is(hex(again.sha256()), sha(snap.data), `after reading ${order.join(",") || "nothing"}`);
      again.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

held("should keep reading its own file after a newer snapshot replaces it, and refuse another snapshot's file", async () => {
  const snap = snapshotOf(40, 500);
  const { dir, path } = await written(snap);
  try {
    assert.is(openSnapshotFileData(path, snapshotFileName, expect, { index: 41, term: 2 }), undefined, "another index");
    assert.is(openSnapshotFileData(path, snapshotFileName, expect, { index: 40, term: 3 }), undefined, "another term");
    const data = openSnapshotFileData(path, snapshotFileName, expect, snap.meta);
    if (!data) throw new Error("not opened");
    const newer = snapshotOf(80, 700);
    const other = await written(newer);
    await rename(other.path, path);
    await rm(other.dir, { recursive: true, force: true });
    assert.equal([...data.subarray(0, 500)], [...snap.data]);
    assert.is(hex(data.sha256()), sha(snap.data));
    data.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

held("should refuse a damaged chunk when it is read, naming the file and offset", async () => {
  const snap = snapshotOf(40, 1000);
  const { dir, path } = await written(snap);
  try {
    const bytes = await readFile(path);
    const at = bytes.length - 40;
    bytes[at] = (bytes[at] ?? 0) ^ 1;
    await writeFile(path, bytes);
    const data = openSnapshotFileData(path, "raft/snapshot.bin", expect, snap.meta);
    if (!data) throw new Error("not opened");
    assert.equal([...data.subarray(0, 100)], [...snap.data.subarray(0, 100)], "undamaged chunks still read");
    let caught: unknown;
    try {
      data.subarray(900, 1000);
    } catch (err) {
      caught = err;
    }
    const d = damageOf(caught);
    assert.ok(d, `a damage error, got ${String(caught)}`);
    assert.is(d?.file, "raft/snapshot.bin");
    assert.ok((d?.offset ?? 0) > 64 && (d?.offset ?? 0) < bytes.length);
    assert.throws(() => data.sha256());
    data.close();
    // A file cut short after it was opened (a disk that lost its tail): the missing chunk is damage too.
    const whole = openSnapshotFileData(path, "raft/snapshot.bin", expect, snap.meta);
    if (!whole) throw new Error("not opened");
    await truncate(path, bytes.length - 200);
    assert.equal([...whole.subarray(0, 100)], [...snap.data.subarray(0, 100)]);
    let cut: unknown;
    try {
      whole.subarray(900, 1000);
    } catch (err) {
      cut = err;
    }
    assert.match(damageOf(cut)?.what ?? String(cut), /cut short/);
    whole.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

held("should be offered by the log store only for the snapshot its file holds", async () => {
  await initCrypto();
  const dir = await mkdtemp(join(tmpdir(), "snapshot-data-store-"));
  try {
    const store = createFileLogStore({ dir, rootKey: key, storeId, snapshotChunkBytes: 64 });
    await store.load();
    const snap = snapshotOf(7, 300);
    assert.is(store.snapshotData(snap.meta), undefined, "nothing stored yet");
    await store.saveSnapshot(snap);
    assert.is(store.snapshotData({ index: 7, term: 1 }), undefined);
    const data = store.snapshotData(snap.meta);
    assert.equal([...(data?.subarray(0, 300) ?? [])], [...snap.data]);
    data?.close();
    await store.persist({ hardState: { term: 2, votedFor: "", commit: 7 }, entries: [], snapshot: snap });
    await store.close();
    // At start the snapshot is checked whole but not held: its data reads from the file.
    const loaded = await createFileLogStore({ dir, rootKey: key, storeId }).load();
    const held = loaded.snapshot?.data;
    assert.ok(held && !(held instanceof Uint8Array), "a reader, not the bytes");
    assert.ok(held && isFileSnapshotData(held));
    assert.equal([...(held?.subarray(0, 300) ?? [])], [...snap.data]);
    if (held && isFileSnapshotData(held)) held.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

held.run();
