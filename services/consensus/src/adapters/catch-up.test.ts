import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "@mc/shared/errors";
import { createMemoryBroker, type Bus } from "@mc/shared/bus";
import { initCrypto } from "@mc/wasm";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createFileLogStore } from "./file-log-store.js";
import { createRaftRunner, type RaftRunner } from "./raft-runner.js";
import type { SnapshotData } from "../domain/types.js";

// A joining node that needs a snapshot larger than one request's deadline
// takes as long as the transfer takes: its addition waits while it makes
// progress, and fails only when it stalls.
const key = new Uint8Array(32).fill(4);
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
let dir = "";

test.before(async () => {
  await initCrypto();
  dir = await mkdtemp(join(tmpdir(), "catch-up-"));
});

test.after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A connection whose deliveries each wait `ms` (a slow link to the joining node). */
function slow(bus: Bus, ms: number): Bus {
  return {
    maxPayload: bus.maxPayload,
    publish: (subject, data, options) => bus.publish(subject, data, options),
    subscribe: (subject, handler, options) => bus.subscribe(subject, (m) => void setTimeout(() => handler(m), ms), options),
    newInbox: () => bus.newInbox(),
    flush: () => bus.flush(),
    onClose: (cb) => bus.onClose(cb),
    close: () => bus.close(),
  };
}

/** A leader holding a compacted log whose snapshot is 40 chunks of 64 KiB, and a fresh node on a slow link. */
async function pair(name: string, joinerDelayMs: number, stallMs: number): Promise<{ leader: RaftRunner; joiner: RaftRunner; restored: () => number }> {
  const broker = createMemoryBroker();
  let restoredBytes = 0;
  const snapshots = (restore: (d: SnapshotData) => void) => ({ every: 3, take: () => new Uint8Array(40 * 64 * 1024).fill(7), restore });
  const leader = createRaftRunner({
    id: "a", clusterId: name, bus: broker.connect(), store: createFileLogStore({ dir: join(dir, name, "a"), rootKey: key }),
    bootstrap: { voters: [{ id: "a", address: "127.0.0.1:1" }], learners: [] },
    apply: () => undefined, snapshots: snapshots(() => undefined), catchUpStallMs: stallMs,
  });
  const joiner = createRaftRunner({
    id: "b", clusterId: name, bus: slow(broker.connect(), joinerDelayMs), store: createFileLogStore({ dir: join(dir, name, "b"), rootKey: key }),
    apply: () => undefined, snapshots: snapshots((d) => void (restoredBytes = d.length)),
  });
  await leader.start();
  await joiner.start();
  for (let i = 0; i < 6; i++) await leader.propose(enc(`entry ${i}`));
  for (let w = 0; w < 500 && leader.status().snapshotIndex === 0; w++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(leader.status().snapshotIndex > 0, "the leader compacted its log");
  return { leader, joiner, restored: () => restoredBytes };
}

test("a joining node that needs a snapshot longer than the deadline is added once it has it", async () => {
  // 40 chunks, each answered after 15 ms: about 600 ms, twice the 300 ms deadline. The stall window is
  // wider than any pause of a loaded CI machine (at 300 ms a busy run stalled and failed): progress, not
  // the window, is what this test is about.
  const { leader, joiner, restored } = await pair("slow", 15, 3000);
  try {
    const started = Date.now();
    const r = await leader.changeMembership({ type: "addVoter", member: { id: "b", address: "127.0.0.1:2" } }, 300);
    assert.ok(Date.now() - started > 300, "the transfer outlasted one deadline");
    assert.ok(r.configuration.voters.some((v) => v.id === "b"), "a voter now");
    assert.is(restored(), 40 * 64 * 1024, "the whole snapshot reached the joiner");
  } finally {
    await joiner.stop();
    await leader.stop();
  }
});

test("a joining node that stops answering fails its addition after the stall window, as a learner", async () => {
  const { leader, joiner } = await pair("stalled", 15, 300);
  try {
    await joiner.stop();
    const err = await leader.changeMembership({ type: "addVoter", member: { id: "b", address: "127.0.0.1:2" } }, 300).catch((e: unknown) => e);
    assert.instance(err, AppError);
    assert.is((err as AppError).reason, "deadline_exceeded");
    const c = leader.status().configuration;
    assert.ok(c.learners.some((l) => l.id === "b") && !c.voters.some((v) => v.id === "b"), "left a learner, never promoted");
  } finally {
    await leader.stop();
  }
});

test.run();
