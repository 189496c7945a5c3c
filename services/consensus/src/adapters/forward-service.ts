import { createClient, type Client, type ConnectRouter } from "@connectrpc/connect";
import { createBusTransport, fromConnectError, toConnectError, type Bus } from "@mc/shared";
import { ForwardService, MembershipChangeType } from "../../gen/consensus/v1/forward_pb.js";
import type { Configuration, Member, MembershipChange } from "../domain/types.js";
import { configurationFromPb, configurationToPb } from "./message-codec.js";
import { classifyFailure, outcomeUnknown } from "./write-outcome.js";

/** What the leader does for a forwarded call; each throws AppError `unavailable` "not the leader" elsewhere. */
export interface LeaderOps {
  proposeAsLeader(data: Uint8Array): Promise<{ index: number; term: number }>;
  readIndexAsLeader(): Promise<{ index: number; term: number }>;
  changeMembershipAsLeader(change: MembershipChange): Promise<{ index: number; term: number; configuration: Configuration }>;
  transferAsLeader(target: string): Promise<{ leaderId: string; term: number }>;
  leaderId(): string;
}

async function mapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw toConnectError(err);
  }
}

/**
 * One error stands for the whole batch, so it must hold for every command
 * in it: "not applied" (503 upstream) only when every command certainly was
 * not; once one may have been, or was, applied, the batch's outcome is
 * unknown and each command is retried with its request id.
 */
export function batchOutcome<T>(settled: readonly PromiseSettledResult<T>[]): T[] {
  const failures = settled.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  const first = failures[0];
  if (first === undefined) return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
  if (failures.length === settled.length && failures.every((f) => classifyFailure(f) === "not_appended")) throw first;
  if (failures.length === settled.length && classifyFailure(first) === "other") throw first;
  throw outcomeUnknown(first);
}

export function addForwardService(router: ConnectRouter, ops: LeaderOps): void {
  router.service(ForwardService, {
    propose: (req) =>
      mapped(async () => {
        if (req.batch.length === 0) {
          const r = await ops.proposeAsLeader(req.data);
          return { index: BigInt(r.index), term: BigInt(r.term), leaderId: ops.leaderId() };
        }
        // Pushed in one synchronous loop, the commands share one leader batch (one propose).
        const all = batchOutcome(await Promise.allSettled(req.batch.map((data) => ops.proposeAsLeader(data))));
        const term = all[0]?.term ?? 0;
        return { index: BigInt(all[0]?.index ?? 0), term: BigInt(term), leaderId: ops.leaderId(), indexes: all.map((r) => BigInt(r.index)) };
      }),
    readIndex: () =>
      mapped(async () => {
        const r = await ops.readIndexAsLeader();
        return { readIndex: BigInt(r.index), term: BigInt(r.term), leaderId: ops.leaderId() };
      }),
    changeMembership: (req) =>
      mapped(async () => {
        const member: Member = { id: req.member?.id ?? "", address: req.member?.address ?? "" };
        const change: MembershipChange =
          req.type === MembershipChangeType.ADD_LEARNER ? { type: "addLearner", member } : req.type === MembershipChangeType.ADD_VOTER ? { type: "addVoter", member } : { type: "remove", id: member.id };
        const r = await ops.changeMembershipAsLeader(change);
        return { index: BigInt(r.index), term: BigInt(r.term), configuration: configurationToPb(r.configuration) };
      }),
    transferLeadership: (req) =>
      mapped(async () => {
        const r = await ops.transferAsLeader(req.targetId);
        return { leaderId: r.leaderId, term: BigInt(r.term) };
      }),
  });
}

/** Calls ForwardService on one node (the leader); errors come back as AppError. */
export interface ForwardClient {
  propose(leader: string, from: string, data: Uint8Array, timeoutMs: number): Promise<{ index: number; term: number }>;
  /** Several commands in one call: the index of each, in order, and the term they were appended in. */
  proposeBatch(leader: string, from: string, batch: readonly Uint8Array[], timeoutMs: number): Promise<{ indexes: number[]; term: number }>;
  readIndex(leader: string, from: string, timeoutMs: number): Promise<{ index: number; term: number }>;
  changeMembership(leader: string, from: string, change: MembershipChange, timeoutMs: number): Promise<{ index: number; term: number; configuration: Configuration }>;
  transferLeadership(leader: string, from: string, target: string, timeoutMs: number): Promise<{ leaderId: string; term: number }>;
}

export function createForwardClient(bus: Bus, clusterId: string): ForwardClient {
  const clients = new Map<string, Client<typeof ForwardService>>();
  const to = (leader: string): Client<typeof ForwardService> => {
    let c = clients.get(leader);
    if (!c) {
      c = createClient(ForwardService, createBusTransport({ bus, node: { clusterId, nodeId: leader } }));
      clients.set(leader, c);
    }
    return c;
  };
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw fromConnectError(err);
    }
  };
  return {
    propose: (leader, fromId, data, timeoutMs) =>
      call(async () => {
        const r = await to(leader).propose({ fromId, data }, { timeoutMs });
        return { index: Number(r.index), term: Number(r.term) };
      }),
    proposeBatch: (leader, fromId, batch, timeoutMs) =>
      call(async () => {
        const r = await to(leader).propose({ fromId, batch: [...batch] }, { timeoutMs });
        return { indexes: r.indexes.map(Number), term: Number(r.term) };
      }),
    readIndex: (leader, fromId, timeoutMs) =>
      call(async () => {
        const r = await to(leader).readIndex({ fromId }, { timeoutMs });
        return { index: Number(r.readIndex), term: Number(r.term) };
      }),
    changeMembership: (leader, fromId, change, timeoutMs) =>
      call(async () => {
        const type =
          change.type === "addLearner" ? MembershipChangeType.ADD_LEARNER : change.type === "addVoter" ? MembershipChangeType.ADD_VOTER : MembershipChangeType.REMOVE;
        const member = change.type === "remove" ? { id: change.id, address: "" } : change.member;
        const r = await to(leader).changeMembership({ fromId, type, member }, { timeoutMs });
        return { index: Number(r.index), term: Number(r.term), configuration: configurationFromPb(r.configuration) };
      }),
    transferLeadership: (leader, fromId, targetId, timeoutMs) =>
      call(async () => {
        const r = await to(leader).transferLeadership({ fromId, targetId }, { timeoutMs });
        return { leaderId: r.leaderId, term: Number(r.term) };
      }),
  };
}
