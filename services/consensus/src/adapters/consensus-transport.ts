import { Code, ConnectError, createClient, type Client, type ConnectRouter } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { createBusTransport } from "@mc/shared/connect";
import type { Bus } from "@mc/shared/bus";
import { ConsensusService, TimeoutNowResponseSchema } from "../../gen/consensus/v1/consensus_pb.js";
import type { RequestMessage, ResponseMessage } from "../domain/types.js";
import {
  appendRequestFromPb,
  appendRequestToPb,
  appendResponseFromPb,
  appendResponseToPb,
  snapshotRequestFromPb,
  snapshotRequestToPb,
  snapshotResponseFromPb,
  snapshotResponseToPb,
  timeoutNowFromPb,
  timeoutNowToPb,
  voteRequestFromPb,
  voteRequestToPb,
  voteResponseFromPb,
  voteResponseToPb,
} from "./message-codec.js";
import { createAppendLaneClient } from "./append-lane.js";

/** Steps one inbound request through the node and answers once its effects are durable. */
export type ConsensusHandler = (request: RequestMessage) => Promise<ResponseMessage | undefined>;

/** Registers ConsensusService: every RPC is one message into the core. */
export function addConsensusService(router: ConnectRouter, nodeId: string, handle: ConsensusHandler): void {
  const only = <T extends ResponseMessage["type"]>(type: T, r: ResponseMessage | undefined): Extract<ResponseMessage, { type: T }> | undefined =>
    r?.type === type ? (r as Extract<ResponseMessage, { type: T }>) : undefined;
  router.service(ConsensusService, {
    requestVote: async (req) => voteResponseToPb(only("voteResp", await handle(voteRequestFromPb(req, nodeId)))),
    appendEntries: async (req) => appendResponseToPb(only("appendResp", await handle(appendRequestFromPb(req, nodeId)))),
    installSnapshot: async (req) => snapshotResponseToPb(only("snapshotResp", await handle(snapshotRequestFromPb(req, nodeId)))),
    timeoutNow: async (req) => {
      const m = timeoutNowFromPb(req, nodeId);
      await handle(m);
      return create(TimeoutNowResponseSchema, { term: req.term, nodeId, accepted: true });
    },
  });
}

export type SendOutcome =
  | { readonly ok: true; readonly response: ResponseMessage | undefined; readonly rttMs: number }
  | { readonly ok: false; readonly lost: "timeout" | "unreachable" | "error" };

export interface PeerSender {
  send(message: RequestMessage): Promise<SendOutcome>;
}

export interface PeerSenderOptions {
  readonly bus: Bus;
  readonly clusterId: string;
  /** A request without an answer within this many ms counts as a lost message. */
  readonly timeoutMs: number;
}

/** Sends core messages to peers over per-node subjects; never throws. */
export function createPeerSender(options: PeerSenderOptions): PeerSender {
  const clients = new Map<string, Client<typeof ConsensusService>>();
  const clientFor = (peer: string): Client<typeof ConsensusService> => {
    let c = clients.get(peer);
    if (!c) {
      c = createClient(ConsensusService, createBusTransport({ bus: options.bus, node: { clusterId: options.clusterId, nodeId: peer }, defaultTimeoutMs: options.timeoutMs }));
      clients.set(peer, c);
    }
    return c;
  };
  const lane = createAppendLaneClient(options.bus, options.clusterId, options.timeoutMs);
  return {
    async send(m) {
      if (m.type === "append") {
        const o = await lane.send(m);
        if (o !== "fallback") return o;
      }
      const client = clientFor(m.to);
      const started = performance.now();
      try {
        let response: ResponseMessage | undefined;
        if (m.type === "vote") response = voteResponseFromPb(await client.requestVote(voteRequestToPb(m)), m.from);
        else if (m.type === "append") response = appendResponseFromPb(await client.appendEntries(appendRequestToPb(m)), m.from);
        else if (m.type === "snapshot") response = snapshotResponseFromPb(await client.installSnapshot(snapshotRequestToPb(m)), m.from);
        else await client.timeoutNow(timeoutNowToPb(m));
        return { ok: true, response, rttMs: performance.now() - started };
      } catch (err) {
        const code = err instanceof ConnectError ? err.code : Code.Unknown;
        return { ok: false, lost: code === Code.DeadlineExceeded ? "timeout" : code === Code.Unavailable ? "unreachable" : "error" };
      }
    },
  };
}
