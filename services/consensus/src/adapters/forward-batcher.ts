import type { ForwardClient } from "./forward-service.js";

interface Pending {
  readonly data: Uint8Array;
  readonly timeoutMs: number;
  resolve(r: { index: number; term: number }): void;
  reject(err: unknown): void;
}

export interface ForwardBatcher {
  /** Forwards one command to `leader`; resolves with where it was appended. */
  propose(leader: string, data: Uint8Array, timeoutMs: number): Promise<{ index: number; term: number }>;
}

/**
 * A follower's forwarded proposals, one Propose call in flight per leader:
 * commands that arrive meanwhile go together in the next call, so a busy
 * follower costs the leader one round trip per batch, not per command. A
 * failed call fails each of its commands with the call's error (the
 * runner's retry rules then apply to each as before).
 */
export function createForwardBatcher(forward: ForwardClient, fromId: string): ForwardBatcher {
  const queues = new Map<string, { busy: boolean; waiting: Pending[] }>();

  async function pump(leader: string): Promise<void> {
    const q = queues.get(leader);
    if (!q || q.busy || q.waiting.length === 0) return;
    q.busy = true;
    const items = q.waiting.splice(0);
    try {
      const timeoutMs = Math.max(...items.map((i) => i.timeoutMs));
      const r = await forward.proposeBatch(leader, fromId, items.map((i) => i.data), timeoutMs);
      items.forEach((item, k) => {
        const index = r.indexes[k];
        if (index === undefined) item.reject(new Error("leader answered fewer indexes than commands"));
        else item.resolve({ index, term: r.term });
      });
    } catch (err) {
      for (const item of items) item.reject(err);
    } finally {
      q.busy = false;
      void pump(leader);
    }
  }

  return {
    propose(leader, data, timeoutMs) {
      return new Promise((resolve, reject) => {
        let q = queues.get(leader);
        if (!q) {
          q = { busy: false, waiting: [] };
          queues.set(leader, q);
        }
        q.waiting.push({ data, timeoutMs, resolve, reject });
        void pump(leader);
      });
    },
  };
}
