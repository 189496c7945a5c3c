import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "@mc/shared/errors";
import { createMemoryBroker } from "@mc/shared/bus";
import { initCrypto } from "@mc/wasm";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createFileLogStore } from "./file-log-store.js";
import { createRaftRunner, type RaftRunner, type StateMachineSnapshots } from "./raft-runner.js";

const key = new Uint8Array(32).fill(3);
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (d: Uint8Array): string => new TextDecoder().decode(d);
let dir = "";

test.before(async () => {
  await initCrypto();
  dir = await mkdtemp(join(tmpdir(), "raft-runner-"));
});

test.after(async () => {
  await rm(dir, { recursive: true, force: true });
});

function single(applied: string[], apply?: (text: string) => unknown, onFatal?: (e: unknown) => void): RaftRunner {
  return createRaftRunner({
    id: "solo", clusterId: "one", bus: createMemoryBroker().connect(),
    bootstrap: { voters: [{ id: "solo", address: "127.0.0.1:7373" }], learners: [] },
    store: createFileLogStore({ dir, rootKey: key }),
    apply: (e) => {
      applied.push(dec(e.data));
      return apply ? apply(dec(e.data)) : applied.length;
    },
    ...(onFatal ? { onFatal } : {}),
  });
}

test("a group of one leads at once, applies proposals and serves reads", async () => {
  const applied: string[] = [];
  const r = single(applied);
  await r.start();
  const started = Date.now();
  const a = await r.propose(enc("a"));
  assert.ok(Date.now() - started < 500, "no election timeout to wait out");
  assert.is(a.result, 1);
  const [b, c] = await Promise.all([r.propose(enc("b")), r.propose(enc("c"))]);
  assert.is(c.index, b.index + 1, "batched into consecutive entries");
  assert.ok((await r.readIndex()) >= c.index);
  const s = r.status();
  assert.is(s.metrics.consens_leader, 1);
  assert.is(s.metrics.consens_nodes, 1);
  assert.is(s.metrics.consens_elections, 1);
  assert.ok(s.ready);
  await r.stop();
});

test("a restart replays the durable log into a fresh state machine", async () => {
  const applied: string[] = [];
  const r = single(applied);
  await r.start();
  await r.propose(enc("d"));
  assert.equal(applied, ["a", "b", "c", "d"]);
  assert.is(r.status().term, 2);
  await r.stop();
});

test("a state machine that throws stops the node instead of diverging", async () => {
  let fatal: unknown;
  const r = single([], (text) => {
    if (text === "boom") throw new Error("state machine broke");
    return "ok";
  }, (e) => {
    fatal = e;
  });
  await r.start();
  try {
    await r.propose(enc("boom"), 2000);
    assert.unreachable("the throwing entry was acknowledged");
  } catch (err) {
    assert.instance(err, AppError);
    assert.is((err as AppError).reason, "internal");
  }
  assert.match(String(fatal), /state machine broke/);
  await r.stop();
});

/** A node of one in `dir` whose state is `box.list` (the texts applied), with a snapshot every 3 entries made by `take`. */
function listRunner(dir: string, box: { list: string[] }, take: (list: readonly string[]) => ReturnType<StateMachineSnapshots["take"]>): RaftRunner {
  return createRaftRunner({
    id: "solo", clusterId: "one", bus: createMemoryBroker().connect(),
    bootstrap: { voters: [{ id: "solo", address: "127.0.0.1:7373" }], learners: [] },
    store: createFileLogStore({ dir, rootKey: key, snapshotChunkBytes: 16 }),
    apply: (e) => box.list.push(dec(e.data)),
    snapshots: {
      every: 3,
      take: () => take(box.list),
      restore: (data) => {
        box.list = JSON.parse(dec(data.subarray(0, data.length))) as string[];
      },
    },
  });
}

test("a slow snapshot is taken at the index it captured while later entries go on applying", async () => {
  const snapDir = await mkdtemp(join(tmpdir(), "raft-runner-snap-"));
  const box = { list: [] as string[] };
  let release: (() => void) | undefined;
  // Applied entries (by list length) at each take; the capture happens at the call.
  const takes: number[] = [];
  const runners: RaftRunner[] = [];
  const start = async (): Promise<RaftRunner> => {
    const r = listRunner(snapDir, box, (list) => {
      const captured = enc(JSON.stringify(list));
      takes.push(list.length);
      // The encoding finishes when the test says so.
      return new Promise<Uint8Array>((resolve) => (release = () => resolve(captured)));
    });
    runners.push(r);
    await r.start();
    return r;
  };
  try {
    const r = await start();
    for (const t of ["a", "b", "c"]) await r.propose(enc(t));
    assert.is(takes.length, 1);
    const capturedAt = r.status().appliedIndex - (box.list.length - (takes[0] ?? 0));
    // Proposals are not held up by the snapshot in flight, and no second one starts meanwhile.
    for (const t of ["d", "e", "f", "g"]) await r.propose(enc(t));
    assert.is(takes.length, 1);
    assert.is(r.status().snapshotIndex, 0);
    release?.();
    for (let i = 0; i < 200 && r.status().snapshotIndex === 0; i++) await new Promise((res) => setTimeout(res, 5));
    assert.is(r.status().snapshotIndex, capturedAt, "compacted at the captured index, not the latest");
    await r.stop();
    box.list = [];
    const again = await start();
    await again.readIndex();
    assert.equal(box.list, ["a", "b", "c", "d", "e", "f", "g"], "the snapshot, then the entries after it");
  } finally {
    // Stopping does not wait for a snapshot that is still encoding.
    for (const r of runners) await r.stop().catch(() => undefined);
    await rm(snapDir, { recursive: true, force: true });
  }
});

// Issue 26: a large state goes straight into the snapshot file, and the core reads it from there.
test("a streamed snapshot is written to its file and held from there; a stop mid-stream leaves no file behind", async () => {
  const snapDir = await mkdtemp(join(tmpdir(), "raft-runner-stream-"));
  const box = { list: [] as string[] };
  let gate: Promise<void> = Promise.resolve();
  let stalling = false;
  let stalled: () => void = () => undefined;
  const stalledTake = new Promise<void>((resolve) => (stalled = resolve));
  const runners: RaftRunner[] = [];
  const start = async (): Promise<RaftRunner> => {
    const r = listRunner(snapDir, box, (list) => {
      const bytes = enc(JSON.stringify(list));
      const wait = gate;
      const stall = stalling;
      // Pieces of 5 bytes, the second one only once the gate opens (the writer is then inside the file).
      async function* pieces(): AsyncGenerator<Uint8Array> {
        for (let at = 0; at < bytes.length; at += 5) {
          if (at > 0 && stall) stalled();
          if (at > 0) await wait;
          yield bytes.subarray(at, at + 5);
        }
      }
      return { length: bytes.length, pieces: pieces() };
    });
    runners.push(r);
    await r.start();
    return r;
  };
  try {
    const r = await start();
    for (const t of ["a", "b", "c", "d"]) await r.propose(enc(t));
    for (let i = 0; i < 200 && !(r.status().snapshotIndex > 0 && r.status().snapshotOnDisk); i++) await new Promise((res) => setTimeout(res, 5));
    assert.ok(r.status().snapshotIndex > 0, "compacted");
    assert.ok(r.status().snapshotOnDisk, "the core reads the snapshot from its file");
    // The next snapshot stalls mid-stream, its second piece never coming; a stop drops it without waiting and removes its temp file.
    gate = new Promise(() => undefined);
    stalling = true;
    for (const t of ["e", "f", "g"]) await r.propose(enc(t));
    await stalledTake;
    await r.stop();
    assert.not.ok((await readdir(snapDir)).some((n) => n.startsWith(".tmp-")), "no temp file left");
    box.list = [];
    gate = Promise.resolve();
    const again = await start();
    await again.readIndex();
    assert.equal(box.list, ["a", "b", "c", "d", "e", "f", "g"], "the streamed snapshot, then the entries after it");
  } finally {
    for (const r of runners) await r.stop().catch(() => undefined);
    await rm(snapDir, { recursive: true, force: true });
  }
});

test("a snapshot interval given as a function is asked again as the state grows", async () => {
  const list: string[] = [];
  // Applied entries at each take: the first after 2 entries, then at each multiple of 5.
  const takes: number[] = [];
  const r = createRaftRunner({
    id: "solo", clusterId: "one", bus: createMemoryBroker().connect(),
    bootstrap: { voters: [{ id: "solo", address: "127.0.0.1:7373" }], learners: [] },
    store: createFileLogStore({ dir: join(dir, "interval"), rootKey: key }),
    apply: (e) => list.push(dec(e.data)),
    snapshots: {
      every: () => (takes.length === 0 ? 2 : 5),
      take: () => {
        takes.push(list.length);
        return enc(JSON.stringify(list));
      },
      restore: () => undefined,
    },
  });
  await r.start();
  try {
    for (let i = 0; i < 16; i++) {
      await r.propose(enc(String(i)));
      // Each snapshot is written before the next proposal, so none is skipped while one is in flight.
      for (let w = 0; w < 200 && r.status().snapshotIndex < r.status().appliedIndex - 5; w++) await new Promise((res) => setTimeout(res, 2));
    }
    assert.ok(takes.length >= 3, `takes at ${takes.join(", ")}`);
    const gaps = takes.slice(1).map((t, i) => t - (takes[i] ?? 0));
    // On the grid of 5 (snapshot-stagger.ts) a gap is 3 to 5 entries; an interval read once (2) gives gaps of 2.
    assert.ok(gaps.every((g) => g >= 3 && g <= 5), `gaps ${gaps.join(", ")}`);
  } finally {
    await r.stop();
  }
});

test("a membership change not confirmed in time says its outcome is unknown and names no node; the log does", async () => {
  const logged: string[] = [];
  const r = createRaftRunner({
    id: "solo", clusterId: "one", bus: createMemoryBroker().connect(),
    bootstrap: { voters: [{ id: "solo", address: "127.0.0.1:7373" }], learners: [] },
    store: createFileLogStore({ dir: join(dir, "ghost"), rootKey: key }),
    apply: () => undefined,
    log: (line) => logged.push(line),
    catchUpStallMs: 300,
  });
  await r.start();
  try {
    await r.readIndex();
    // Added as a learner at once, but a node nobody runs never catches up to be promoted.
    const err = await r.changeMembership({ type: "addVoter", member: { id: "ghost_9", address: "127.0.0.1:9" } }, 300).catch((e: unknown) => e);
    assert.instance(err, AppError);
    assert.is((err as AppError).reason, "deadline_exceeded");
    assert.is((err as AppError).message, "outcome unknown: the change may have been applied");
    assert.ok(logged.some((l) => l.includes("127.0.0.1:9")), `the cause is logged: ${logged.join(" | ")}`);
  } finally {
    await r.stop();
  }
});

test.run();
