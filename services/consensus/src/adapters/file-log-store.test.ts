import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initCrypto } from "@mc/wasm";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Entry } from "../domain/types.js";
import { createFileLogStore } from "./file-log-store.js";

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

test("a torn tail is cut off at start and the log stays usable", async () => {
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key });
  await store.load();
  await store.persist({ hardState: { term: 1, votedFor: "", commit: 0 }, entries: [], snapshot: undefined });
  await store.persist({ hardState: undefined, entries: [entry(1, 1), entry(2, 1)], snapshot: undefined });
  await store.close();
  const [seg] = await segmentsOf(dir);
  const path = join(dir, seg ?? "");
  const size = (await stat(path)).size;
  await truncate(path, size - 5); // the last record was half written when the power went
  const again = createFileLogStore({ dir, rootKey: key });
  const loaded = await again.load();
  assert.equal(loaded.entries.map((e) => e.index), [1]);
  assert.match(loaded.repaired ?? "", /torn tail/);
  await again.persist({ hardState: undefined, entries: [entry(2, 1, "again")], snapshot: undefined });
  await again.close();
  const third = await createFileLogStore({ dir, rootKey: key }).load();
  assert.equal(third.entries.map(text), [`${secret}-1`, "again"]);
  assert.is(third.repaired, undefined);
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
  try {
    await createFileLogStore({ dir, rootKey: key }).load();
    assert.unreachable("loaded a corrupt log");
  } catch (err) {
    assert.instance(err, Error);
    assert.match((err as Error).message, /is corrupt at byte \d+ .*not a torn write; refusing to start/);
  }
});

test("the wrong root key cannot read the log", async () => {
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key });
  await store.load();
  await store.persist({ hardState: { term: 1, votedFor: "a", commit: 0 }, entries: [entry(1, 1), entry(2, 1)], snapshot: undefined });
  await store.close();
  try {
    await createFileLogStore({ dir, rootKey: new Uint8Array(32).fill(8) }).load();
    assert.unreachable("opened under another key");
  } catch (err) {
    assert.match((err as Error).message, /does not open under the root key/);
  }
});

test("snapshots are atomic, compact old segments, and nothing plaintext reaches the disk", async () => {
  const dir = await freshDir();
  const store = createFileLogStore({ dir, rootKey: key, segmentBytes: 512 });
  await store.load();
  for (let i = 1; i <= 40; i++) await store.persist({ hardState: { term: 1, votedFor: "", commit: i - 1 }, entries: [entry(i, 1)], snapshot: undefined });
  const before = await segmentsOf(dir);
  assert.ok(before.length > 3, `only ${before.length} segments`);
  const snapshot = { meta: { index: 30, term: 1, configuration: { voters: [{ id: "n1", address: "a:1" }], learners: [] } }, data: new TextEncoder().encode(`state ${secret}`) };
  await store.persist({ hardState: { term: 1, votedFor: "", commit: 40 }, entries: [], snapshot });
  const after = await segmentsOf(dir);
  assert.ok(after.length < before.length, "old segments were not compacted");
  await store.close();
  const loaded = await createFileLogStore({ dir, rootKey: key }).load();
  assert.is(loaded.snapshot?.meta.index, 30);
  assert.is(new TextDecoder().decode(loaded.snapshot?.data), `state ${secret}`);
  assert.equal(loaded.entries.map((e) => e.index), [31, 32, 33, 34, 35, 36, 37, 38, 39, 40]);
  assert.is(loaded.hardState.commit, 40);
  for (const name of await readdir(dir)) {
    const bytes = await readFile(join(dir, name));
    assert.not.ok(bytes.includes(Buffer.from(secret)), `${name} holds plaintext`);
    assert.not.ok(bytes.includes(Buffer.from("n1")), `${name} holds the configuration in clear`);
  }
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

test.run();
