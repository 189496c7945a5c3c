import { apply } from "../../domain/apply.js";
import type { Command, Payload } from "../../domain/command.js";
import type { CommandSink } from "../../domain/ports.js";
import type { ApplyResult, KmsState } from "../../domain/state.js";
import { decodeCommand, encodeCommand } from "./command-codec.js";
import type { LocalStore } from "./local-store.js";

export interface LocalNode extends CommandSink {
  readonly state: () => KmsState;
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
 */
export function createLocalNode(store: LocalStore, options: { snapshotEvery?: number; now?: () => string } = {}): LocalNode {
  const state = store.snapshot;
  for (const e of store.entries) apply(state, decodeCommand(e.data), e.index);
  const snapshotEvery = options.snapshotEvery ?? 1000;
  const now = options.now ?? (() => new Date().toISOString());
  let sinceSnapshot = store.entries.length;
  let queue: Pending[] = [];
  let flushing: Promise<void> | undefined;
  let closed = false;

  async function flushLoop(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      let index = state.appliedIndex;
      const entries = batch.map((p) => ({ index: (index += 1n), data: encodeCommand(p.command) }));
      try {
        await store.log.append(entries);
      } catch (err) {
        for (const p of batch) p.reject(err);
        continue;
      }
      batch.forEach((p, i) => p.resolve(apply(state, p.command, entries[i]?.index)));
      sinceSnapshot += batch.length;
      if (sinceSnapshot >= snapshotEvery) {
        // A failed snapshot loses nothing: the log still holds every entry.
        await store.writeSnapshot(state).then(() => (sinceSnapshot = 0), () => undefined);
      }
    }
  }

  function kick(): void {
    if (flushing) return;
    flushing = flushLoop().finally(() => {
      flushing = undefined;
      if (queue.length > 0) kick();
    });
  }

  return {
    state: () => state,
    propose(payload: Payload, issuedBy: string, requestId = ""): Promise<ApplyResult> {
      if (closed) return Promise.reject(new Error("node is closed"));
      const command: Command = { requestId, issuedAt: now(), issuedBy, payload };
      const done = new Promise<ApplyResult>((resolve, reject) => queue.push({ command, resolve, reject }));
      kick();
      return done;
    },
    async close() {
      closed = true;
      await flushing;
      await store.close();
    },
  };
}
