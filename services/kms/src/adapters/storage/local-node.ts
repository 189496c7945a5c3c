import { AppError } from "@mc/shared/errors";
import { apply } from "../../domain/apply.js";
import { snapshotInterval } from "../../domain/snapshot-cadence.js";
import type { Command, Payload } from "../../domain/command.js";
import type { CommandSink } from "../../domain/ports.js";
import type { ApplyResult, KmsState } from "../../domain/state.js";
import { decodeCommand, encodeCommand } from "./command-codec.js";
import type { LogEntry } from "./command-log.js";
import type { LocalStore } from "./local-store.js";

export interface LocalNode extends CommandSink {
  readonly state: () => KmsState;
  /** Why the node can take no more writes (its log could not be written), or undefined. */
  failure(): string | undefined;
  close(): Promise<void>;
}

interface Pending {
  readonly command: Command;
  readonly resolve: (r: ApplyResult) => void;
  readonly reject: (e: unknown) => void;
}

/**
 * The single-node command path (a Raft group of one, until Raft replaces the
 * log): commands are appended to the sealed log and fsynced in batches (group
 * commit), then applied in log order; a proposal resolves only after both.
 *
 * Snapshots run beside the writes, not in their way: the state is captured
 * at the applied index S (a pointer copy), then encoded, sealed and written
 * while later batches go on being appended and applied. The log entries
 * after S are kept in memory meanwhile; once snapshot.bin is durable, the log
 * is replaced in one atomic write by one that starts at S + 1 and holds them.
 * A crash at any point leaves a snapshot and a log that together hold every
 * acknowledged entry. Without `snapshotEvery`, snapshots follow
 * `snapshotInterval` (at least 1,000 entries).
 */
export function createLocalNode(store: LocalStore, options: { snapshotEvery?: number; now?: () => string; log?: (line: string) => void } = {}): LocalNode {
  const state = store.snapshot;
  for (const e of store.entries) apply(state, decodeCommand(e.data), e.index);
  const fixed = options.snapshotEvery;
  const snapshotDue = (since: number): boolean => since >= (fixed ?? snapshotInterval(state, 1000));
  const now = options.now ?? (() => new Date().toISOString());
  let sinceSnapshot = store.entries.length;
  let queue: Pending[] = [];
  let flushing: Promise<void> | undefined;
  let closed = false;
  /** The snapshot being written, and the entries appended since its capture. */
  let running: { done: Promise<bigint | undefined>; tail: LogEntry[] } | undefined;
  /** A written snapshot's index whose log restart is still to do (in the flush loop, between batches). */
  let written: bigint | undefined;
  /**
   * Set once an append fails (a full disk, an I/O error): the log file may end in a torn record, so
   * nothing more is written to it. Every later write is refused at once, in one sentence, and
   * readiness says why; reads go on from the state, which holds exactly the acknowledged entries.
   * A restart repairs the torn tail (those entries were never acknowledged).
   */
  let failed: AppError | undefined;

  function startSnapshot(): void {
    const tail: LogEntry[] = [];
    // The capture happens inside this call, at the current applied index.
    const done = store.writeSnapshot(state).then(
      (index) => index,
      // A failed snapshot loses nothing: the log still holds every entry.
      () => undefined,
    );
    running = { done, tail };
    sinceSnapshot = 0;
    void done.then((index) => {
      if (index === undefined) {
        running = undefined;
        return;
      }
      written = index;
      kick();
    });
  }

  /** Replaces the log by the entries after the written snapshot; runs only between batches. */
  async function compact(index: bigint): Promise<void> {
    const tail = running?.tail.filter((e) => e.index > index) ?? [];
    running = undefined;
    written = undefined;
    await store.log.restart(index + 1n, tail).catch(() => undefined);
  }

  async function flushLoop(): Promise<void> {
    while (queue.length > 0 || written !== undefined) {
      if (written !== undefined) {
        await compact(written);
        continue;
      }
      const batch = queue;
      queue = [];
      let index = state.appliedIndex;
      const entries = batch.map((p) => ({ index: (index += 1n), data: encodeCommand(p.command) }));
      try {
        if (failed) throw failed;
        await store.log.append(entries);
      } catch (err) {
        failed ??= stopWriting(err);
        for (const p of batch) p.reject(failed);
        continue;
      }
      running?.tail.push(...entries);
      batch.forEach((p, i) => p.resolve(apply(state, p.command, entries[i]?.index)));
      sinceSnapshot += batch.length;
      if (running === undefined && snapshotDue(sinceSnapshot)) startSnapshot();
    }
  }

  function stopWriting(err: unknown): AppError {
    const code = (err as NodeJS.ErrnoException).code;
    const cause = code === "ENOSPC" ? "no space left on the disk" : code ? `${code} from the disk` : err instanceof Error ? err.message : String(err);
    options.log?.(`kms: cannot write the command log (${err instanceof Error ? err.message : String(err)}); no more writes until the node is restarted`);
    return new AppError("unavailable", `the node cannot write to its data directory (${cause}); restart it once the disk is fixed`, { cause: err });
  }

  function kick(): void {
    if (flushing) return;
    flushing = flushLoop().finally(() => {
      flushing = undefined;
      if (queue.length > 0 || written !== undefined) kick();
    });
  }

  return {
    state: () => state,
    failure: () => failed?.message,
    propose(payload: Payload, issuedBy: string, requestId = ""): Promise<ApplyResult> {
      if (closed) return Promise.reject(new Error("node is closed"));
      if (failed) return Promise.reject(failed);
      const command: Command = { requestId, issuedAt: now(), issuedBy, payload };
      const done = new Promise<ApplyResult>((resolve, reject) => queue.push({ command, resolve, reject }));
      kick();
      return done;
    },
    async close() {
      closed = true;
      // A snapshot under way finishes (and its log restart runs) before the files close.
      while (flushing || running) {
        await flushing;
        await running?.done;
        // Its restart was kicked when it finished: wait for that too.
        await Promise.resolve();
      }
      await store.close();
    },
  };
}
