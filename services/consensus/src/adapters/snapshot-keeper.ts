import type { RaftNode } from "../domain/raft-node.js";
import { rankOf, snapshotDue } from "../domain/snapshot-stagger.js";
import type { HeldSnapshot, Ready, SnapshotData } from "../domain/types.js";
import type { LogStore } from "./file-log-store.js";
import { isFileSnapshotData, type FileSnapshotData } from "./snapshot-file-data.js";
import { isSnapshotStream, type SnapshotStream } from "./snapshot-file.js";
import type { StreamHalt } from "./stream-halt.js";

export interface StateMachineSnapshots {
  /**
   * Take a snapshot after this many applied entries; a function is asked
   * after each batch (a state machine whose snapshots grow with its state
   * spaces them out as it grows).
   */
  readonly every: number | (() => number);
  /**
   * The state as of the last applied entry. Whatever runs synchronously in
   * the call must capture that state (cheaply: it holds up the ready loop);
   * the encoding may then resolve later, while entries go on being applied,
   * and should yield to the event loop as it goes: heartbeats and votes
   * must keep flowing within the election timeout. A stream (its length,
   * then its pieces) goes straight into the snapshot file, and the core then
   * reads it from there: a large state is never encoded whole in memory.
   */
  take(): Uint8Array | SnapshotStream | Promise<Uint8Array | SnapshotStream>;
  restore(data: SnapshotData): void | Promise<void>;
}

export interface SnapshotKeeperDeps {
  readonly id: string;
  readonly store: Pick<LogStore, "saveSnapshot" | "snapshotData">;
  readonly snapshots: StateMachineSnapshots | undefined;
  /** The running core; undefined once the node stopped or failed. */
  readonly core: () => RaftNode | undefined;
  readonly enqueue: (ready: Ready) => unknown;
  readonly fatal: (err: unknown) => void;
  /** Ends the pieces of a snapshot still streaming when the node stops. */
  readonly streams: StreamHalt;
  readonly log: ((line: string) => void) | undefined;
}

/** A node's own snapshots: when to take one, and which snapshot file the core reads from. */
export interface SnapshotKeeper {
  /** The state now holds everything up to `index` (loaded or restored): the next snapshot counts from there. */
  restoredAt(index: number): void;
  /** After entries up to `applied` were applied: starts a snapshot there when one is due and none is running. */
  afterApply(applied: number): void;
  /** A Ready's snapshot is durable: from now on the core reads its bytes from the snapshot file. */
  holdOnDisk(meta: { readonly index: number; readonly term: number }): void;
  /** The snapshot found at start. */
  holdLoaded(snapshot: HeldSnapshot): void;
  /** Whether the core's snapshot at `index` is read from its file (status). */
  holds(index: number): boolean;
  /** Lets go of every snapshot file (the node stopped). */
  close(): void;
}

export function createSnapshotKeeper(d: SnapshotKeeperDeps): SnapshotKeeper {
  let lastSnapshot = 0;
  // The snapshot being encoded and stored, at most one at a time.
  let snapshotting: Promise<void> | undefined;
  // The snapshot file the core reads its snapshot from (holdOnDisk).
  let held: FileSnapshotData | undefined;
  let heldIndex = 0;
  // A streamed snapshot's file, given to the core with its compaction: it becomes `held` once that is persisted.
  const compacting = new Map<number, FileSnapshotData>();

  const intervalOf = (s: StateMachineSnapshots): number => (typeof s.every === "number" ? s.every : s.every());

  function hold(data: FileSnapshotData, index: number): void {
    held?.close();
    held = data;
    heldIndex = index;
  }

  /**
   * Captures the state at `index` now; encoding it and writing the file run
   * beside the ready loop (a stream straight into the file, whose data the
   * core then reads from there; a stopped node drops it, its temp file
   * goes), and only then is the compaction queued (the core
   * compacts at any applied index, not only the latest). The Readies behind
   * it never wait for a large snapshot, so heartbeats and votes stay on time.
   */
  function snapshotAt(index: number, snapshots: StateMachineSnapshots): void {
    lastSnapshot = index;
    const started = performance.now();
    const taken = snapshots.take();
    snapshotting = (async () => {
      const data = await taken;
      // Undefined once stopped, or when a snapshot from the leader already covers the index.
      const meta = d.core()?.snapshotMeta(index);
      if (!meta) return;
      if (isSnapshotStream(data)) {
        await d.store.saveSnapshot({ meta, data: { ...data, pieces: d.streams.guard(data.pieces, () => d.core() !== undefined) } });
        const core = d.core();
        // Undefined when the file holds a later snapshot (the leader's) by now.
        const onDisk = core ? d.store.snapshotData(meta) : undefined;
        if (!onDisk || !core) return onDisk?.close();
        const ready = core.compact(index, onDisk);
        if (ready.snapshot?.data === onDisk) compacting.set(index, onDisk);
        else onDisk.close();
        d.enqueue(ready);
      } else {
        await d.store.saveSnapshot({ meta, data });
        // Its Ready swaps in the file once persisted (the loop's persist calls holdOnDisk).
        const core = d.core();
        if (core) d.enqueue(core.compact(index, data));
      }
      // One line per snapshot: how long the capture, encoding and durable write took beside the writes.
      d.log?.(`consensus: snapshot at entry ${index} written in ${Math.round(performance.now() - started)} ms (${data.length} bytes)`);
    })()
      .catch((err: unknown) => {
        if (d.core()) d.fatal(err);
      })
      .finally(() => {
        snapshotting = undefined;
      });
  }

  /**
   * Once the snapshot file holds the core's snapshot, the core reads its bytes
   * from there when a follower needs them, and the copy in memory goes (about
   * 300 bytes a key beside the state itself; issue 26).
   */
  function holdOnDisk(meta: { readonly index: number; readonly term: number }): void {
    const core = d.core();
    if (!core) return;
    const own = compacting.get(meta.index);
    if (own) {
      // The core already reads this snapshot from its file: only the previous file is let go.
      compacting.delete(meta.index);
      return hold(own, meta.index);
    }
    const data = d.store.snapshotData(meta);
    if (!data) return;
    if (!core.holdSnapshotData(meta, data)) return data.close();
    // The core held the previous file's data only while its snapshot was that one.
    hold(data, meta.index);
  }

  return {
    restoredAt(index) {
      lastSnapshot = index;
    },
    afterApply(applied) {
      const core = d.core();
      if (!d.snapshots || !core || snapshotting) return;
      const rank = () => rankOf(d.id, core.status().configuration.voters.map((v) => v.id));
      if (snapshotDue({ applied, last: lastSnapshot, interval: intervalOf(d.snapshots), rank })) snapshotAt(applied, d.snapshots);
    },
    holdOnDisk,
    holdLoaded(snapshot) {
      // Its file reader stays the core's (nothing to swap); any other data is swapped for one.
      if (!isFileSnapshotData(snapshot.data)) return holdOnDisk(snapshot.meta);
      hold(snapshot.data, snapshot.meta.index);
    },
    holds: (index) => held !== undefined && heldIndex === index,
    close() {
      held?.close();
      held = undefined;
      for (const file of compacting.values()) file.close();
      compacting.clear();
    },
  };
}
