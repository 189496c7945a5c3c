import { create } from "@bufbuild/protobuf";
import {
  AppendEntriesRequestSchema,
  AppendEntriesResponseSchema,
  ConfigurationSchema,
  EntrySchema,
  EntryType as PbEntryType,
  InstallSnapshotRequestSchema,
  InstallSnapshotResponseSchema,
  RequestVoteRequestSchema,
  RequestVoteResponseSchema,
  SnapshotMetadataSchema,
  TimeoutNowRequestSchema,
  type AppendEntriesRequest,
  type AppendEntriesResponse,
  type Configuration as PbConfiguration,
  type Entry as PbEntry,
  type InstallSnapshotRequest,
  type InstallSnapshotResponse,
  type RequestVoteRequest,
  type RequestVoteResponse,
  type TimeoutNowRequest,
} from "../../gen/consensus/v1/consensus_pb.js";
import type {
  AppendRequest,
  AppendResponse,
  Configuration,
  Entry,
  EntryType,
  SnapshotRequest,
  SnapshotResponse,
  TimeoutNowRequest as DomainTimeoutNow,
  VoteRequest,
  VoteResponse,
} from "../domain/types.js";

// Domain <-> protobuf. Terms and indexes are numbers in the core and uint64
// bigints on the wire; the sender and receiver ids travel in the message
// (`from`) and in the per-node subject (`to`).

const big = (n: number): bigint => BigInt(n);
const num = (b: bigint): number => Number(b);

const typeToPb: Record<EntryType, PbEntryType> = { normal: PbEntryType.NORMAL, config: PbEntryType.CONFIG, noop: PbEntryType.NOOP };

export function entryToPb(e: Entry): PbEntry {
  return create(EntrySchema, { index: big(e.index), term: big(e.term), type: typeToPb[e.type], data: e.data });
}

export function entryFromPb(e: PbEntry): Entry {
  const type: EntryType = e.type === PbEntryType.CONFIG ? "config" : e.type === PbEntryType.NOOP ? "noop" : "normal";
  return { index: num(e.index), term: num(e.term), type, data: e.data };
}

export function configurationToPb(c: Configuration): PbConfiguration {
  return create(ConfigurationSchema, { voters: c.voters.map((m) => ({ ...m })), learners: c.learners.map((m) => ({ ...m })) });
}

export function configurationFromPb(c: PbConfiguration | undefined): Configuration {
  const members = (list: readonly { id: string; address: string }[]): { id: string; address: string }[] => list.map((m) => ({ id: m.id, address: m.address }));
  return { voters: members(c?.voters ?? []), learners: members(c?.learners ?? []) };
}

export const voteRequestToPb = (m: VoteRequest): RequestVoteRequest =>
  create(RequestVoteRequestSchema, {
    term: big(m.term), candidateId: m.from, lastLogIndex: big(m.lastLogIndex), lastLogTerm: big(m.lastLogTerm), preVote: m.preVote, leadershipTransfer: m.transfer,
  });

export const voteRequestFromPb = (r: RequestVoteRequest, to: string): VoteRequest => ({
  type: "vote", from: r.candidateId, to, term: num(r.term), lastLogIndex: num(r.lastLogIndex), lastLogTerm: num(r.lastLogTerm), preVote: r.preVote, transfer: r.leadershipTransfer,
});

export const voteResponseToPb = (m: VoteResponse | undefined): RequestVoteResponse =>
  create(RequestVoteResponseSchema, m ? { term: big(m.term), voterId: m.from, voteGranted: m.granted, preVote: m.preVote } : {});

export const voteResponseFromPb = (r: RequestVoteResponse, to: string): VoteResponse | undefined =>
  r.voterId === "" ? undefined : { type: "voteResp", from: r.voterId, to, term: num(r.term), granted: r.voteGranted, preVote: r.preVote };

export const appendRequestToPb = (m: AppendRequest): AppendEntriesRequest =>
  create(AppendEntriesRequestSchema, {
    term: big(m.term), leaderId: m.from, prevLogIndex: big(m.prevIndex), prevLogTerm: big(m.prevTerm), entries: m.entries.map(entryToPb), leaderCommit: big(m.commit), sequence: big(m.seq),
  });

export const appendRequestFromPb = (r: AppendEntriesRequest, to: string): AppendRequest => ({
  type: "append", from: r.leaderId, to, term: num(r.term), prevIndex: num(r.prevLogIndex), prevTerm: num(r.prevLogTerm), entries: r.entries.map(entryFromPb), commit: num(r.leaderCommit), seq: num(r.sequence),
});

export const appendResponseToPb = (m: AppendResponse | undefined): AppendEntriesResponse =>
  create(
    AppendEntriesResponseSchema,
    m
      ? {
          term: big(m.term), followerId: m.from, success: m.success, matchIndex: big(m.matchIndex), conflictTerm: big(m.conflictTerm),
          conflictIndex: big(m.conflictIndex), lastLogIndex: big(m.lastIndex), sequence: big(m.seq),
        }
      : {},
  );

export const appendResponseFromPb = (r: AppendEntriesResponse, to: string): AppendResponse | undefined =>
  r.followerId === ""
    ? undefined
    : {
        type: "appendResp", from: r.followerId, to, term: num(r.term), success: r.success, matchIndex: num(r.matchIndex), conflictTerm: num(r.conflictTerm),
        conflictIndex: num(r.conflictIndex), lastIndex: num(r.lastLogIndex), seq: num(r.sequence),
      };

export const snapshotRequestToPb = (m: SnapshotRequest): InstallSnapshotRequest =>
  create(InstallSnapshotRequestSchema, {
    term: big(m.term), leaderId: m.from, offset: big(m.offset), data: m.data, done: m.done, sha256: m.checksum,
    metadata: create(SnapshotMetadataSchema, { lastIncludedIndex: big(m.meta.index), lastIncludedTerm: big(m.meta.term), configuration: configurationToPb(m.meta.configuration) }),
  });

export const snapshotRequestFromPb = (r: InstallSnapshotRequest, to: string): SnapshotRequest => ({
  type: "snapshot", from: r.leaderId, to, term: num(r.term), offset: num(r.offset), data: r.data, done: r.done, checksum: r.sha256,
  meta: { index: num(r.metadata?.lastIncludedIndex ?? 0n), term: num(r.metadata?.lastIncludedTerm ?? 0n), configuration: configurationFromPb(r.metadata?.configuration) },
});

export const snapshotResponseToPb = (m: SnapshotResponse | undefined): InstallSnapshotResponse =>
  create(InstallSnapshotResponseSchema, m ? { term: big(m.term), followerId: m.from, lastIncludedIndex: big(m.index), nextOffset: big(m.nextOffset), installed: m.installed } : {});

export const snapshotResponseFromPb = (r: InstallSnapshotResponse, to: string): SnapshotResponse | undefined =>
  r.followerId === "" ? undefined : { type: "snapshotResp", from: r.followerId, to, term: num(r.term), index: num(r.lastIncludedIndex), nextOffset: num(r.nextOffset), installed: r.installed };

export const timeoutNowToPb = (m: DomainTimeoutNow): TimeoutNowRequest => create(TimeoutNowRequestSchema, { term: big(m.term), leaderId: m.from });

export const timeoutNowFromPb = (r: TimeoutNowRequest, to: string): DomainTimeoutNow => ({ type: "timeoutNow", from: r.leaderId, to, term: num(r.term) });
