import { fromBinary, toBinary } from "@bufbuild/protobuf";
import type { Bus, BusMessage, BusSubscription } from "@mc/shared/bus";
import { AppendEntriesRequestSchema, AppendEntriesResponseSchema } from "../../gen/consensus/v1/consensus_pb.js";
import type { AppendRequest, RequestMessage, ResponseMessage } from "../domain/types.js";
import type { SendOutcome } from "./consensus-transport.js";
import { encodeAppendRequest } from "./append-encoding.js";
import { appendRequestFromPb, appendResponseFromPb, appendResponseToPb } from "./message-codec.js";

// AppendEntries is the one RPC sent per replication round, so it skips the
// Connect-over-bus layer (per call: headers on every frame, an AbortSignal,
// an async body generator, a head/end frame pair): the request is one bare
// protobuf message on the peer's append subject, the answer one bare message
// on the sender's inbox. Issue 21 measured that layer as the largest single
// cost of a committed creation on the leader. A peer that does not listen on
// the subject (an older node) answers "no responders", and the caller falls
// back to ConsensusService.AppendEntries, so mixed versions keep replicating.

/** One subject per node, beside the Connect subjects; the ids are checked tokens there too. */
const token = /^[A-Za-z0-9_-]+$/;

export const appendSubject = (clusterId: string, nodeId: string): string => `consensus.v1.append.${clusterId}.${nodeId}`;

/** What a send came to; "fallback" when the peer does not serve the lane (or the message is too large for it). */
export type LaneOutcome = SendOutcome | "fallback";

export interface AppendLaneClient {
  send(m: AppendRequest): Promise<LaneOutcome>;
}

/** Serves `handle` on this node's append subject; answers nothing when the handler fails (the sender times out). */
export function serveAppendLane(bus: Bus, clusterId: string, nodeId: string, handle: (m: RequestMessage) => Promise<ResponseMessage | undefined>): BusSubscription {
  return bus.subscribe(appendSubject(clusterId, nodeId), (msg) => {
    const reply = msg.reply;
    if (reply === undefined) return;
    let request: AppendRequest;
    try {
      request = appendRequestFromPb(fromBinary(AppendEntriesRequestSchema, msg.data), nodeId);
    } catch {
      return; // damaged frame: dropped, like a lost message
    }
    void handle(request).then(
      (r) => {
        try {
          bus.publish(reply, toBinary(AppendEntriesResponseSchema, appendResponseToPb(r?.type === "appendResp" ? r : undefined)));
        } catch {
          // connection closing: the sender counts the message as lost
        }
      },
      () => undefined,
    );
  });
}

interface Pending {
  readonly to: string;
  readonly started: number;
  readonly resolve: (o: LaneOutcome) => void;
}

/** Sends AppendEntries to peers' lanes; one inbox subscription and one sweep timer for all calls. */
export function createAppendLaneClient(bus: Bus, clusterId: string, timeoutMs: number): AppendLaneClient {
  const inbox = bus.newInbox();
  const pending = new Map<string, Pending>();
  let sub: BusSubscription | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  let nextToken = 0;

  const settle = (token: string, o: LaneOutcome): void => {
    const p = pending.get(token);
    if (!p) return; // late or duplicated answer: the call is already settled
    pending.delete(token);
    if (pending.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
    p.resolve(o);
  };

  const onReply = (msg: BusMessage): void => {
    const token = msg.subject.slice(inbox.length + 1);
    const p = pending.get(token);
    if (!p) return;
    if (msg.noResponders) return settle(token, "fallback");
    try {
      const response = appendResponseFromPb(fromBinary(AppendEntriesResponseSchema, msg.data), p.to);
      settle(token, { ok: true, response, rttMs: performance.now() - p.started });
    } catch {
      settle(token, { ok: false, lost: "error" });
    }
  };

  // One timer for every call in flight (not one per call): a call is lost once older than the timeout.
  const sweep = (): void => {
    const now = performance.now();
    for (const [token, p] of pending) if (now - p.started >= timeoutMs) settle(token, { ok: false, lost: "timeout" });
  };

  return {
    send(m) {
      const data = encodeAppendRequest(m);
      // Too large for one bus message, or an id that is no subject token: the Connect path answers as it always did.
      if (data.byteLength > bus.maxPayload - 1024 || !token.test(m.to)) return Promise.resolve("fallback");
      sub ??= bus.subscribe(`${inbox}.*`, onReply);
      const id = String(++nextToken);
      return new Promise<LaneOutcome>((resolve) => {
        pending.set(id, { to: m.from, started: performance.now(), resolve });
        sweeper ??= setInterval(sweep, Math.max(5, Math.floor(timeoutMs / 5)));
        try {
          bus.publish(appendSubject(clusterId, m.to), data, { reply: `${inbox}.${id}` });
        } catch {
          settle(id, { ok: false, lost: "unreachable" });
        }
      });
    },
  };
}
