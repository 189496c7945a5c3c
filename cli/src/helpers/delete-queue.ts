import type { Client } from "minio";
import { s3Code } from "../core/errors.js";
import { requireStore, type Location } from "../storage/location.js";
import { batchable, deleteBatch, maxBatch, type DeleteOutcome, type DeleteTarget } from "../storage/s3/s3-delete-batch.js";

export interface DeleteQueueOptions {
  readonly bypassGovernance: boolean;
  /** A plain one-object delete: keys a DeleteObjects body cannot carry, and servers without DeleteObjects. */
  single(target: DeleteTarget): Promise<{ deleteMarker: boolean; versionId: string }>;
  /** Each target's outcome, in the order the targets were added. */
  settle(target: DeleteTarget, outcome: DeleteOutcome): Promise<void>;
}

export interface DeleteQueue {
  /** Queues one delete; waits only when a full batch is ready while the previous one is still in flight. */
  add(target: DeleteTarget): Promise<void>;
  /** Sends what is left and waits until every outcome is settled. */
  finish(): Promise<void>;
}

/**
 * Deletes of one bucket sent as S3 DeleteObjects requests of up to 1,000 keys
 * (as upstream `mc rm -r` does), one request in flight while the listing
 * fills the next: a removal of 50,000 objects is 50 requests, not 50,000.
 */
export function createDeleteQueue(client: Client, bucket: string, options: DeleteQueueOptions): DeleteQueue {
  let pending: DeleteTarget[] = [];
  let inFlight: Promise<void> = Promise.resolve();
  let batches = true;
  const one = (target: DeleteTarget): Promise<DeleteOutcome> =>
    options.single(target).then(
      (res): DeleteOutcome => ({ ok: true, ...res }),
      (err: unknown): DeleteOutcome => ({ ok: false, error: err instanceof Error ? err : new Error(String(err)) }),
    );
  const send = async (targets: readonly DeleteTarget[]): Promise<void> => {
    const outcomes = new Map<DeleteTarget, DeleteOutcome>();
    const together = batches ? targets.filter((t) => batchable(t.key)) : [];
    if (together.length > 0) {
      try {
        const answers = await deleteBatch(client, bucket, together, { bypassGovernance: options.bypassGovernance });
        together.forEach((t, i) => {
          const answer = answers[i];
          if (answer) outcomes.set(t, answer);
        });
      } catch (err) {
        // A request the server refused as a whole deleted nothing: its objects go one by one, each
        // with its own outcome as before batching. A server without DeleteObjects gets plain deletes
        // from now on. A request lost on the way (no answer) may have deleted some: not sent again.
        const code = s3Code(err);
        if (code === "NotImplemented" || code === "MethodNotAllowed") batches = false;
        if (code === "") for (const t of together) outcomes.set(t, { ok: false, error: err instanceof Error ? err : new Error(String(err)) });
      }
    }
    for (const t of targets) if (!outcomes.has(t)) outcomes.set(t, await one(t));
    for (const t of targets) await options.settle(t, outcomes.get(t) ?? { ok: false, error: new Error("not deleted") });
  };
  return {
    async add(target) {
      pending.push(target);
      if (pending.length < maxBatch) return;
      const batch = pending;
      pending = [];
      await inFlight;
      inFlight = send(batch);
      // Awaited by the next add() or finish(); until then a failure must not count as unhandled.
      inFlight.catch(() => undefined);
    },
    async finish() {
      await inFlight;
      const rest = pending;
      pending = [];
      if (rest.length > 0) await send(rest);
    },
  };
}

/**
 * Removes objects of a location in the order given, in batches on S3, calling
 * `removed` for each in that order; the first failure is thrown, as a loop of
 * one delete after another would (`mirror --remove`).
 */
export async function removeInOrder<T extends { readonly key: string }>(loc: Location, items: Iterable<T>, removed: (item: T) => void): Promise<void> {
  const store = requireStore(loc);
  if (loc.kind !== "s3") {
    for (const item of items) {
      await store.remove(item.key);
      removed(item);
    }
    return;
  }
  const byTarget = new Map<DeleteTarget, T>();
  const queue = createDeleteQueue(loc.client, loc.bucket, {
    bypassGovernance: false,
    single: (t) => store.remove(t.key),
    settle: async (t, outcome) => {
      const item = byTarget.get(t);
      byTarget.delete(t);
      if (!outcome.ok) throw outcome.error;
      if (item) removed(item);
    },
  });
  for (const item of items) {
    const target = { key: item.key };
    byTarget.set(target, item);
    await queue.add(target);
  }
  await queue.finish();
}
