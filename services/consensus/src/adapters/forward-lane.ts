import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import type { Bus, BusMessage, BusSubscription } from "@mc/shared/bus";
import { AppError, isReason, toAppError } from "@mc/shared/errors";
import { ProposeRequestSchema, ProposeResponseSchema } from "../../gen/consensus/v1/forward_pb.js";
import { batchOutcome } from "./forward-service.js";

// A follower's forwarded proposals (one batch per call, forward-batcher.ts)
// take the same bare lane as AppendEntries (append-lane.ts): one protobuf
// ProposeRequest on the leader's forward subject, one ProposeResponse back,
// no Connect framing or per-call headers. Only a failure carries headers:
// its AppError reason and message, so the caller classifies it exactly as it
// classified the Connect error (write-outcome.ts). A leader that does not
// listen (an older node) answers "no responders": the caller falls back to
// ForwardService.Propose, so mixed versions keep forwarding.

const token = /^[A-Za-z0-9_-]+$/;
const reasonKey = "x-app-reason";

export const forwardSubject = (clusterId: string, nodeId: string): string => `consensus.v1.forward.${clusterId}.${nodeId}`;

export type ForwardLaneOutcome = { readonly indexes: number[]; readonly term: number } | "fallback";

export interface ForwardLaneClient {
  /** Resolves with where each command was appended, "fallback" when the leader has no lane; rejects with an AppError. */
  proposeBatch(leader: string, fromId: string, batch: readonly Uint8Array[], timeoutMs: number): Promise<ForwardLaneOutcome>;
}

/** Serves forwarded batches on this node's forward subject with `proposeAsLeader` (which refuses when not the leader). */
export function serveForwardLane(bus: Bus, clusterId: string, nodeId: string, proposeAsLeader: (data: Uint8Array) => Promise<{ index: number; term: number }>): BusSubscription {
  return bus.subscribe(forwardSubject(clusterId, nodeId), (msg) => {
    const reply = msg.reply;
    if (reply === undefined) return;
    const answer = (data: Uint8Array, headers?: ReadonlyMap<string, string>): void => {
      try {
        bus.publish(reply, data, headers ? { headers } : {});
      } catch {
        // connection closing: the caller's deadline turns this into an unknown outcome
      }
    };
    const fail = (err: unknown): void => {
      const e = toAppError(err);
      answer(new TextEncoder().encode(e.message), new Map([[reasonKey, e.reason]]));
    };
    let batch: Uint8Array[];
    try {
      const req = fromBinary(ProposeRequestSchema, msg.data);
      batch = req.batch.length > 0 ? req.batch : [req.data];
    } catch {
      return fail(new AppError("invalid_argument", "damaged forwarded proposal"));
    }
    // Pushed in one synchronous loop, the commands share one leader batch (one propose).
    void Promise.allSettled(batch.map((data) => proposeAsLeader(data)))
      .then((settled) => {
        const all = batchOutcome(settled);
        answer(toBinary(ProposeResponseSchema, create(ProposeResponseSchema, { index: BigInt(all[0]?.index ?? 0), term: BigInt(all[0]?.term ?? 0), leaderId: nodeId, indexes: all.map((r) => BigInt(r.index)) })));
      })
      .catch(fail);
  });
}

interface Pending {
  readonly deadline: number;
  readonly resolve: (o: ForwardLaneOutcome) => void;
  readonly reject: (err: unknown) => void;
}

export function createForwardLaneClient(bus: Bus, clusterId: string): ForwardLaneClient {
  const inbox = bus.newInbox();
  const pending = new Map<string, Pending>();
  let sub: BusSubscription | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  let nextId = 0;

  const take = (id: string): Pending | undefined => {
    const p = pending.get(id);
    pending.delete(id);
    if (pending.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
    return p;
  };

  const onReply = (msg: BusMessage): void => {
    const p = take(msg.subject.slice(inbox.length + 1));
    if (!p) return; // late or duplicated answer
    if (msg.noResponders) return p.resolve("fallback");
    const reason = msg.headers.get(reasonKey);
    if (reason !== undefined) {
      return p.reject(new AppError(isReason(reason) ? reason : "internal", isReason(reason) ? new TextDecoder().decode(msg.data) : "internal error"));
    }
    try {
      const r = fromBinary(ProposeResponseSchema, msg.data);
      p.resolve({ indexes: r.indexes.map(Number), term: Number(r.term) });
    } catch {
      // The leader may have appended the batch: its outcome is unknown.
      p.reject(new AppError("unavailable", "damaged answer to a forwarded proposal"));
    }
  };

  const sweep = (): void => {
    const now = Date.now();
    for (const [id, p] of pending) if (now >= p.deadline) take(id)?.reject(new AppError("deadline_exceeded", "forwarded proposal timed out"));
  };

  return {
    proposeBatch(leader, fromId, batch, timeoutMs) {
      const data = toBinary(ProposeRequestSchema, create(ProposeRequestSchema, { fromId, batch: [...batch] }));
      // Too large for one bus message, or an id that is no subject token: the Connect path answers as it always did.
      if (data.byteLength > bus.maxPayload - 1024 || !token.test(leader)) return Promise.resolve("fallback");
      sub ??= bus.subscribe(`${inbox}.*`, onReply);
      const id = String(++nextId);
      return new Promise<ForwardLaneOutcome>((resolve, reject) => {
        pending.set(id, { deadline: Date.now() + timeoutMs, resolve, reject });
        sweeper ??= setInterval(sweep, 20);
        try {
          bus.publish(forwardSubject(clusterId, leader), data, { reply: `${inbox}.${id}` });
        } catch {
          take(id);
          // Nothing left this node: certainly not appended.
          reject(new AppError("unavailable", "no service is listening: the bus is closed"));
        }
      });
    },
  };
}
