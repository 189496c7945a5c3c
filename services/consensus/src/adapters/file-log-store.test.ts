import { createHash } from "node:crypto";
import { appendFile, cp, mkdtemp, readdir, readFile, rm, stat, truncate, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initCrypto } from "@mc/wasm";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Entry } from "../domain/types.js";
import { createFileLogStore, type LogStore } from "./file-log-store.js";
import { encodeBlob } from "./file-log-store-blob.js";
import { encodeRecord } from "./file-log-store-format.js";
import { encodeRecordV1 } from "./log-records.js";
import { inMemory } from "./snapshot-file-data.js";

const key = new Uint8Array(32).fill(7);
const secret = "SECRET-COMMAND-4711";
const entry = (index: number, term: number, text = `${secret}-${index}`): Entry => ({ index, term, type: "normal", data: new TextEncoder().encode(text) });
const text = (e: Entry | undefined): string => new TextDecoder().decode(e?.data);
const dirs: string[] = [];

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "consensus-log-"));
  dirs.push(dir);
  return dir;
}

async function segmentsOf(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((n) => n.endsWith(".seg")).sort();
}

async function fingerprint(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).sort();
  return Promise.all(names.map(async (n) => `${n} ${createHash("sha256").update(await readFile(join(dir, n))).digest("hex")}`));
}

async function expectDamage(store: LogStore, message: RegExp): Promise<void> {
  try {
    await store.load();
  } catch (err) {
    assert.match((err as Error).message, message);
    return;
  }
  assert.unreachable("a damaged log folder loaded");
}

test.before(async () => {
  await initCrypto();
});

test.after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

test("a restart recovers hard state, entries and truncations", async () => {
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key });
  assert.equal((await store.load()).entries, []);
  await store.persist({ hardState: { term: 2, votedFor: "n2", commit: 0 }, entries: [1, 2, 3, 4].map((i) => entry(i, 1)), snapshot: undefined });
  // A new leader overwrites 3..4 with its own entries.
  await store.persist({ hardState: { term: 3, votedFor: "n3", commit: 3 }, entries: [entry(3, 3, "three")], snapshot: undefined });
  await store.close();
  const again = createFileLogStore({ dir, rootKey: key });
  const loaded = await again.load();
  assert.equal(loaded.hardState, { term: 3, votedFor: "n3", commit: 3 });
  assert.equal(loaded.entries.map((e) => [e.index, e.term]), [[1, 1], [2, 1], [3, 3]]);
  assert.is(text(loaded.entries[2]), "three");
  assert.is(loaded.repaired, undefined);
  await again.close();
});

test("a torn tail (a short write after the last acknowledged record) is cut off at start and the log stays usable", async () => {
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key });
  await store.load();
  await store.persist({ hardState: { term: 1, votedFor: "", commit: 0 }, entries: [], snapshot: undefined });
  await store.persist({ hardState: undefined, entries: [entry(1, 1), entry(2, 1)], snapshot: undefined });
  await store.close();
  const [seg] = await segmentsOf(dir);
  const path = join(dir, seg ?? "");
  // The next record's header made it to disk, half its body did not.
  const next = encodeRecord(key, { tag: "raft-seg", storeId: new Uint8Array(16), base: 1 }, 4, 1, new Uint8Array(100));
  await appendFile(path, next.subarray(0, 60));
  const again = createFileLogStore({ dir, rootKey: key });
  const loaded = await again.load();
  assert.equal(loaded.entries.map((e) => e.index), [1, 2]);
  assert.match(loaded.repaired ?? "", /torn tail .*\(60 bytes: record of \d+ bytes runs past the end/);
  await again.persist({ hardState: undefined, entries: [entry(3, 1, "again")], snapshot: undefined });
  await again.close();
  const third = await createFileLogStore({ dir, rootKey: key }).load();
  assert.equal(third.entries.map(text), [`${secret}-1`, `${secret}-2`, "again"]);
  assert.is(third.repaired, undefined);
});

test("acknowledged records cut off (at a record boundary or not) are damage, not a torn tail", async () => {
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key });
  await store.load();
  for (let i = 1; i <= 3; i++) await store.persist({ hardState: undefined, entries: [entry(i, 1)], snapshot: undefined });
  await store.close();
  const [seg] = await segmentsOf(dir);
  const path = join(dir, seg ?? "");
  const size = (await stat(path)).size;
  for (const cut of [size - 5, size - 200]) {
    const copy = await mkdtemp(join(tmpdir(), "consensus-cut-"));
    dirs.push(copy);
    await cp(dir, copy, { recursive: true });
    await truncate(join(copy, seg ?? ""), cut);
    const before = await fingerprint(copy);
    await expectDamage(createFileLogStore({ dir: copy, rootKey: key }), new RegExp(`^data directory is damaged: ${seg} at offset ${cut}: the file ends at byte ${cut} but ${size} bytes were acknowledged$`));
    assert.equal(await fingerprint(copy), before);
  }
});

test("a flipped byte inside the log is detected and the store refuses to start", async () => {
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key });
  await store.load();
  for (let i = 1; i <= 5; i++) await store.persist({ hardState: undefined, entries: [entry(i, 1)], snapshot: undefined });
  await store.close();
  const [seg] = await segmentsOf(dir);
  const path = join(dir, seg ?? "");
  const buf = await readFile(path);
  const at = Math.floor(buf.length / 2);
  buf[at] = (buf[at] ?? 0) ^ 0x10;
  await writeFile(path, buf);
  const before = await fingerprint(dir);
  await expectDamage(createFileLogStore({ dir, rootKey: key }), /^data directory is damaged: log-000000000001\.seg at offset \d+: record (checksum mismatch|header checksum mismatch)$/);
  assert.equal(await fingerprint(dir), before, "a refused log folder changed");
});

test("the wrong root key cannot read the log", async () => {
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key });
  await store.load();
  await store.persist({ hardState: { term: 1, votedFor: "a", commit: 0 }, entries: [entry(1, 1), entry(2, 1)], snapshot: undefined });
  await store.close();
  await expectDamage(createFileLogStore({ dir, rootKey: new Uint8Array(32).fill(8) }), /another root key|does not open under the root key/);
});

test("snapshots are atomic, compact old segments, and nothing plaintext reaches the disk", async () => {
  // Long enough that ciphertext cannot contain it by chance (a 2-byte id did, about once in 100 runs).
  const voterId = "voter-7d3c9e41b2";
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key, segmentBytes: 512 });
  await store.load();
  for (let i = 1; i <= 40; i++) await store.persist({ hardState: { term: 1, votedFor: "", commit: i - 1 }, entries: [entry(i, 1)], snapshot: undefined });
  const before = await segmentsOf(dir);
  assert.ok(before.length > 3, `only ${before.length} segments`);
  const snapshot = { meta: { index: 30, term: 1, configuration: { voters: [{ id: voterId, address: "a:1" }], learners: [] } }, data: new TextEncoder().encode(`state ${secret}`) };
  await store.persist({ hardState: { term: 1, votedFor: "", commit: 40 }, entries: [], snapshot });
  const after = await segmentsOf(dir);
  assert.ok(after.length < before.length, "old segments were not compacted");
  await store.close();
  const loaded = await createFileLogStore({ dir, rootKey: key }).load();
  assert.is(loaded.snapshot?.meta.index, 30);
  assert.is(new TextDecoder().decode(loaded.snapshot && inMemory(loaded.snapshot).data), `state ${secret}`);
  assert.equal(loaded.entries.map((e) => e.index), [31, 32, 33, 34, 35, 36, 37, 38, 39, 40]);
  assert.is(loaded.hardState.commit, 40);
  for (const name of await readdir(dir)) {
    const bytes = await readFile(join(dir, name));
    assert.not.ok(bytes.includes(Buffer.from(secret)), `${name} holds plaintext`);
    assert.not.ok(bytes.includes(Buffer.from(voterId)), `${name} holds the configuration in clear`);
  }
});

test("a snapshot recorded after newer entries (it was encoded while writes went on) leaves the log whole once the segments before it are compacted", async () => {
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key, segmentBytes: 1024 });
  await store.load();
  let last = 0;
  const put = () => store.persist({ hardState: undefined, entries: [entry(++last, 1)], snapshot: undefined });
  const snapshotAt = (index: number) =>
    store.persist({ hardState: undefined, entries: [], snapshot: { meta: { index, term: 1, configuration: { voters: [], learners: [] } }, data: new Uint8Array([index]) } });
  const first = (await segmentsOf(dir)).length;
  while ((await segmentsOf(dir)).length === first) await put();
  // The new segment starts with two entries, then records a snapshot far behind them.
  await put();
  await put();
  const behind = 3;
  assert.ok(last - 2 > behind + 1, `the segment starts at entry ${last - 1}`);
  await snapshotAt(behind);
  await put();
  await put();
  // The next snapshot covers every older segment: the one holding the stale record is now first.
  await snapshotAt(last - 1);
  assert.is((await segmentsOf(dir)).length, 1);
  await store.close();
  const loaded = await createFileLogStore({ dir, rootKey: key }).load();
  assert.is(loaded.snapshot?.meta.index, last - 1);
  assert.equal(loaded.entries.map((e) => e.index), [last]);
});

test("an installed snapshot that conflicts with the log drops the old suffix for good", async () => {
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key });
  await store.load();
  await store.persist({ hardState: { term: 2, votedFor: "", commit: 2 }, entries: [1, 2, 3, 4, 5].map((i) => entry(i, 2)), snapshot: undefined });
  const snapshot = { meta: { index: 4, term: 3, configuration: { voters: [], learners: [] } }, data: new Uint8Array([1]) };
  await store.persist({ hardState: { term: 3, votedFor: "", commit: 4 }, entries: [], snapshot });
  await store.close();
  const loaded = await createFileLogStore({ dir, rootKey: key }).load();
  assert.is(loaded.snapshot?.meta.index, 4);
  assert.equal(loaded.entries, []);
});

test("a lost last segment, a lost snapshot and an unknown file are damage", async () => {
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key, segmentBytes: 400 });
  await store.load();
  for (let i = 1; i <= 12; i++) await store.persist({ hardState: { term: 1, votedFor: "", commit: i - 1 }, entries: [entry(i, 1)], snapshot: undefined });
  const snapshot = { meta: { index: 3, term: 1, configuration: { voters: [], learners: [] } }, data: new Uint8Array([1]) };
  await store.persist({ hardState: undefined, entries: [], snapshot });
  await store.close();
  const segs = await segmentsOf(dir);
  assert.ok(segs.length >= 3, segs.join(","));
  const variant = async (change: (d: string) => Promise<void>, message: RegExp): Promise<void> => {
    const copy = await mkdtemp(join(tmpdir(), "consensus-variant-"));
    dirs.push(copy);
    await cp(dir, copy, { recursive: true });
    await change(copy);
    const before = await fingerprint(copy);
    await expectDamage(createFileLogStore({ dir: copy, rootKey: key, mustExist: true }), message);
    assert.equal(await fingerprint(copy), before);
  };
  await variant((d) => unlink(join(d, segs.at(-1) ?? "")), /closed, but log-\d+\.seg is missing/);
  await variant((d) => unlink(join(d, segs[1] ?? "")), /missing \(later segments exist\)/);
  await variant((d) => unlink(join(d, "snapshot.bin")), /^data directory is damaged: snapshot\.bin at offset 0: missing/);
  await variant((d) => writeFile(join(d, "notes.txt"), "hi"), /^data directory is damaged: notes\.txt at offset 0: unknown file/);
  await variant(async (d) => {
    for (const s of await readdir(d)) await unlink(join(d, s));
  }, /the log folder is missing or empty/);
  const other = await freshDir();
  const foreign = createFileLogStore({ dir: other, rootKey: key, storeId: new Uint8Array(16).fill(1) });
  await foreign.load();
  await foreign.close();
  await variant((d) => cp(join(other, "log-000000000001.seg"), join(d, segs.at(-1) ?? "")), /the file belongs to another data directory|header says/);
});

test("a first-format folder loads strictly with legacy set and is rewritten in the current format", async () => {
  const dir = await freshDir();
  const v1 = [
    encodeRecordV1(key, { kind: "hard", hardState: { term: 2, votedFor: "n1", commit: 2 } }),
    ...[1, 2, 3].map((i) => encodeRecordV1(key, { kind: "entry", entry: entry(i, 2) })),
  ];
  await writeFile(join(dir, "log-000000000001.seg"), Buffer.concat(v1));
  await expectDamage(createFileLogStore({ dir, rootKey: key }), /log-000000000001\.seg at offset 0: not a record file/);
  const torn = await freshDir();
  await writeFile(join(torn, "log-000000000001.seg"), Buffer.concat(v1).subarray(0, -3));
  await expectDamage(createFileLogStore({ dir: torn, rootKey: key, legacy: true }), /first-format record cut short/);
  const store = createFileLogStore({ dir, rootKey: key, legacy: true });
  const loaded = await store.load();
  assert.equal(loaded.entries.map((e) => e.index), [1, 2, 3]);
  assert.equal(loaded.hardState, { term: 2, votedFor: "n1", commit: 2 });
  await store.close();
  const again = await createFileLogStore({ dir, rootKey: key }).load();
  assert.equal(again.entries.map(text), [1, 2, 3].map((i) => `${secret}-${i}`));
});

const noMembers = { voters: [], learners: [] };
const bodyOf = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);

test("a snapshot saved ahead of its compaction survives a crash before the record, and is sealed in chunks", async () => {
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key, snapshotChunkBytes: 100 });
  await store.load();
  await store.persist({ hardState: { term: 1, votedFor: "", commit: 6 }, entries: [1, 2, 3, 4, 5, 6].map((i) => entry(i, 1)), snapshot: undefined });
  const data = bodyOf(1000);
  await store.saveSnapshot({ meta: { index: 4, term: 1, configuration: noMembers }, data });
  // An older one never replaces it (a slow encoding finishing after a newer snapshot).
  await store.saveSnapshot({ meta: { index: 3, term: 1, configuration: noMembers }, data: new Uint8Array([9]) });
  const file = await readFile(join(dir, "snapshot.bin"));
  assert.is(file.subarray(0, 8).toString("latin1"), "mcblob3\n");
  assert.ok(file.length > 1000 + 10 * 45, `${file.length} bytes: one chunk per 100`);
  await store.close();
  // Crashed before the compaction was recorded: the snapshot is newer than the log says, which is fine.
  const crashed = createFileLogStore({ dir, rootKey: key, snapshotChunkBytes: 100 });
  const loaded = await crashed.load();
  assert.is(loaded.snapshot?.meta.index, 4);
  assert.equal(loaded.snapshot && inMemory(loaded.snapshot).data, data);
  assert.equal(loaded.entries.map((e) => e.index), [5, 6]);
  // The compaction then only records it: the file stays as written.
  await crashed.persist({ hardState: undefined, entries: [], snapshot: loaded.snapshot && inMemory(loaded.snapshot) });
  assert.equal(await readFile(join(dir, "snapshot.bin")), file);
  await crashed.close();
  assert.equal((await createFileLogStore({ dir, rootKey: key }).load()).entries.map((e) => e.index), [5, 6]);
});

test("a second-format (mcblob2) snapshot still loads", async () => {
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key });
  await store.load();
  await store.persist({ hardState: { term: 1, votedFor: "", commit: 3 }, entries: [1, 2, 3].map((i) => entry(i, 1)), snapshot: undefined });
  await store.persist({ hardState: undefined, entries: [], snapshot: { meta: { index: 2, term: 1, configuration: noMembers }, data: new Uint8Array([5]) } });
  await store.close();
  const meta = new TextEncoder().encode(JSON.stringify({ index: 2, term: 1, configuration: noMembers }));
  const body = new Uint8Array(4 + meta.length + 300);
  new DataView(body.buffer).setUint32(0, meta.length);
  body.set(meta, 4);
  body.set(bodyOf(300), 4 + meta.length);
  await writeFile(join(dir, "snapshot.bin"), encodeBlob(key, { tag: "raft-snp", storeId: new Uint8Array(16), index: 2 }, body));
  const loaded = await createFileLogStore({ dir, rootKey: key }).load();
  assert.equal(loaded.snapshot && inMemory(loaded.snapshot).data, bodyOf(300));
  assert.equal(loaded.entries.map((e) => e.index), [3]);
});

test("every damage to a chunked snapshot names the file and the chunk's offset", async () => {
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key, snapshotChunkBytes: 64 });
  await store.load();
  await store.persist({ hardState: { term: 1, votedFor: "", commit: 3 }, entries: [1, 2, 3].map((i) => entry(i, 1)), snapshot: undefined });
  await store.persist({ hardState: undefined, entries: [], snapshot: { meta: { index: 3, term: 1, configuration: noMembers }, data: bodyOf(400) } });
  await store.close();
  const pristine = await readFile(join(dir, "snapshot.bin"));
  const metaLength = JSON.stringify({ index: 3, term: 1, configuration: noMembers }).length;
  const chunks = Math.ceil((4 + metaLength + 400) / 64);
  const starts = Array.from({ length: chunks }, (_, i) => 64 + i * (64 + 41 + 4));
  const variant = async (bytes: Uint8Array, message: RegExp): Promise<void> => {
    const copy = await freshDir();
    await cp(dir, copy, { recursive: true });
    await writeFile(join(copy, "snapshot.bin"), bytes);
    const before = await fingerprint(copy);
    await expectDamage(createFileLogStore({ dir: copy, rootKey: key }), message);
    assert.equal(await fingerprint(copy), before, "a refused folder is left as it was");
  };
  const flipped = (at: number): Buffer => {
    const b = Buffer.from(pristine);
    b[at] = (b[at] ?? 0) ^ 0x10;
    return b;
  };
  for (const [i, at] of starts.entries()) {
    await variant(flipped(at + 30), new RegExp(`^data directory is damaged: snapshot\\.bin at offset ${at}: chunk ${i} checksum mismatch$`));
  }
  // A chunk and its checksum replaced together by the same chunk of another file: its seal no longer matches.
  const other = Buffer.from(pristine);
  other.set(pristine.subarray(starts[1] ?? 0, (starts[1] ?? 0) + 109), starts[2] ?? 0);
  await variant(other, new RegExp(`snapshot\\.bin at offset ${starts[2] ?? 0}: chunk 2 does not open under the root key$`));
  await variant(pristine.subarray(0, starts.at(-1)), /snapshot\.bin at offset \d+: the header says \d+ bytes in \d+ chunks/);
  await variant(flipped(50), /snapshot\.bin at offset 0: header checksum mismatch$/);
  await variant(Buffer.concat([pristine, Buffer.alloc(4)]), /snapshot\.bin at offset \d+: the header says/);
});

test.run();
