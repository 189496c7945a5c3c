import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initCrypto } from "@mc/wasm";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createPrng, type Random } from "../domain/prng.js";
import { createRaftLog, type RaftLog } from "../domain/raft-log.js";
import type { Entry, Snapshot } from "../domain/types.js";
import { createFileLogStore, type LogStore } from "./file-log-store.js";
import { isFileSnapshotData } from "./snapshot-file-data.js";

// The store against the core's own log as the model: whatever sequence of
// Readies a node can produce (appends, truncations by a new leader, its own
// snapshots taken behind the tail, a leader's snapshots that keep or drop the
// suffix) and wherever segments rotate and get compacted, a restart must load
// exactly the log the core held. A false "gap" at start was this class.

const key = new Uint8Array(32).fill(3);
const config = { voters: [], learners: [] };
const pick = (r: Random, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

interface World {
  readonly r: Random;
  readonly dir: string;
  store: LogStore;
  model: RaftLog;
  term: number;
  commit: number;
}

const open = (dir: string): LogStore => createFileLogStore({ dir, rootKey: key, segmentBytes: 700 });

function entries(from: number, count: number, term: number): Entry[] {
  return Array.from({ length: count }, (_, k) => ({ index: from + k, term, type: "normal" as const, data: new Uint8Array(20 + (k % 7)).fill(from + k) }));
}

async function persistEntries(w: World, list: Entry[]): Promise<void> {
  w.model.append(list);
  w.model.takeUnstable();
  await w.store.persist({ hardState: { term: w.term, votedFor: "", commit: w.commit }, entries: list, snapshot: undefined });
}

async function persistSnapshot(w: World, snap: Snapshot, ahead: boolean): Promise<void> {
  if (ahead) await w.store.saveSnapshot(snap);
  w.model.installSnapshot(snap);
  const unstable = w.model.takeUnstable();
  w.commit = Math.max(w.commit, snap.meta.index);
  await w.store.persist({ hardState: { term: w.term, votedFor: "", commit: w.commit }, entries: unstable, snapshot: snap });
}

async function step(w: World): Promise<void> {
  const { r, model } = w;
  const last = model.lastIndex();
  const op = r();
  if (op < 0.45) return persistEntries(w, entries(last + 1, pick(r, 1, 4), w.term));
  if (op < 0.55 && last > w.commit) {
    // A new leader overwrites the uncommitted tail.
    w.term += 1;
    return persistEntries(w, entries(pick(r, w.commit + 1, last), pick(r, 1, 3), w.term));
  }
  if (op < 0.65) {
    w.commit = pick(r, w.commit, last);
    return w.store.persist({ hardState: { term: w.term, votedFor: "", commit: w.commit }, entries: [], snapshot: undefined });
  }
  if (op < 0.85 && w.commit > model.snapshotIndex()) {
    // Its own snapshot, often far behind the tail (encoded while writes went on).
    const index = pick(r, model.snapshotIndex() + 1, w.commit);
    const term = model.termAt(index) ?? 0;
    return persistSnapshot(w, { meta: { index, term, configuration: config }, data: new Uint8Array([index & 255]) }, r() < 0.7);
  }
  if (op < 0.92) {
    // A leader's snapshot: matching the log (suffix kept), or beyond/conflicting with it (dropped).
    const index = pick(r, w.commit + 1, last + 5);
    const matching = r() < 0.5 && model.termAt(index) !== undefined;
    if (!matching) w.term += 1;
    const term = matching ? (model.termAt(index) ?? 0) : w.term;
    return persistSnapshot(w, { meta: { index, term, configuration: config }, data: new Uint8Array([index & 255, 1]) }, false);
  }
  return restart(w);
}

async function restart(w: World): Promise<void> {
  await w.store.close();
  w.store = open(w.dir);
  const loaded = await w.store.load();
  const want = { snapshot: w.model.snapshotIndex(), entries: w.model.slice(w.model.firstIndex(), w.model.lastIndex()).map((e) => `${e.index}/${e.term}`) };
  const got = { snapshot: loaded.snapshot?.meta.index ?? 0, entries: loaded.entries.map((e) => `${e.index}/${e.term}`) };
  assert.equal(got, want);
  if (loaded.snapshot && isFileSnapshotData(loaded.snapshot.data)) loaded.snapshot.data.close();
}

test.before(async () => {
  await initCrypto();
});

test("any sequence of Readies loads back as the log the core held, across rotations and compactions", async () => {
  const seeds = Number(process.env["LOG_MODEL_SEEDS"] ?? 40);
  for (let seed = 1; seed <= seeds; seed++) {
    const dir = await mkdtemp(join(tmpdir(), "consensus-log-model-"));
    const w: World = { r: createPrng(seed), dir, store: open(dir), model: createRaftLog(undefined, []), term: 1, commit: 0 };
    try {
      await w.store.load();
      for (let i = 0; i < 60; i++) await step(w);
      await restart(w);
    } catch (err) {
      throw new Error(`seed ${seed} (LOG_MODEL_SEEDS=${seed} replays it): ${(err as Error).message}`, { cause: err });
    } finally {
      await w.store.close();
      await rm(dir, { recursive: true, force: true });
    }
  }
});

test.run();
