import type { Readable } from "node:stream";
import type { RunnerStatus } from "@mc/consensus";
import type { NodeDescription } from "../cluster/node-description.js";

/** The Raft side of a node in cluster mode. */
export interface RaftInfo {
  status(): RunnerStatus;
  /** HOST:PORT of each member by node id. */
  hosts(): Record<string, string>;
  /** Linearizable read point (ReadIndex), applied here when it resolves. */
  linearize(timeoutMs?: number): Promise<void>;
  /** Membership changes (root only, checked by the caller): the member addresses afterwards. */
  addMember(host: string): Promise<string[]>;
  removeMember(host: string): Promise<string[]>;
  describe(): NodeDescription;
  /** Hands leadership to the member at HOST:PORT, or to the most up-to-date one. */
  transferLeadership(host: string | undefined): Promise<{ leaderId: string; host: string; term: number }>;
}

/** What the edge reports about the node beyond the domain (status, health, audit). */
export interface NodeInfo {
  readonly version: string;
  readonly commit: string;
  readonly nodeId: string;
  readonly host: string;
  readonly startedAt: number;
  readonly hsmKind: string;
  hsmActive(): boolean;
  appliedIndex(): bigint;
  /** A reason while the node cannot serve; undefined when ready. */
  notReady(): string | undefined;
  /** Why writes are refused while reads are served (a single node that could not write its log), or undefined. */
  notWritable?(): string | undefined;
  /** A new stream of audit lines (NDJSON) from now on. */
  auditStream(signal: AbortSignal): Readable;
  /** Cluster mode only. */
  readonly raft?: RaftInfo;
}

/** Waits for a linearizable read point in cluster mode (unless the caller asked for a stale read). */
export async function readBarrier(info: NodeInfo, stale = false): Promise<void> {
  if (info.raft && !stale) await info.raft.linearize();
}

/** REST spelling of a Raft role (the NodeRole enum's lowercase suffix). */
const roleName = (role: string): string => (role === "preCandidate" ? "pre_candidate" : role);

export function isLeader(info: NodeInfo): boolean {
  return info.raft ? info.raft.status().role === "leader" : true;
}

export function nodeStatus(info: NodeInfo) {
  const base = { version: info.version, uptime: Math.floor((Date.now() - info.startedAt) / 1000), node_id: info.nodeId };
  const hsm = { kind: info.hsmKind, active: info.hsmActive() };
  if (info.raft) {
    const s = info.raft.status();
    return { ...base, leader_id: s.leaderId, role: roleName(s.role), term: s.term, commit_index: s.commitIndex, applied_index: s.appliedIndex, nodes: info.raft.hosts(), hsm, warnings: s.warnings };
  }
  const index = Number(info.appliedIndex());
  return { ...base, leader_id: info.nodeId, role: "leader", term: 1, commit_index: index, applied_index: index, nodes: { [info.nodeId]: info.host }, hsm };
}

export function clusterStatus(info: NodeInfo) {
  if (info.raft) {
    const s = info.raft.status();
    const hosts = info.raft.hosts();
    const self = { id: s.id, host: hosts[s.id] ?? info.host, role: roleName(s.role), up: true, last_contact_ms: 0, applied_index: s.appliedIndex, lag: Math.max(0, s.commitIndex - s.appliedIndex), rtt_ms: 0 };
    const peers = s.peers.map((p) => ({
      id: p.id,
      host: hosts[p.id] ?? "",
      role: p.id === s.leaderId ? "leader" : p.voter ? "follower" : "learner",
      up: p.lastContactMs !== undefined && p.lastError === undefined,
      last_contact_ms: p.lastContactMs ?? -1,
      // Known on the leader only (its replication progress); elsewhere -1.
      applied_index: p.match ?? -1,
      lag: p.match === undefined ? -1 : Math.max(0, s.commitIndex - p.match),
      rtt_ms: p.rttMs.at(-1) ?? 0,
    }));
    return { leader_id: s.leaderId, term: s.term, commit_index: s.commitIndex, nodes: [self, ...peers], warnings: s.warnings };
  }
  const index = Number(info.appliedIndex());
  return {
    leader_id: info.nodeId,
    term: 1,
    commit_index: index,
    nodes: [{ id: info.nodeId, host: info.host, role: "leader", up: true, last_contact_ms: 0, applied_index: index, lag: 0, rtt_ms: 0 }],
  };
}
