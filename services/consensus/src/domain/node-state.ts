import { decodeConfiguration, emptyConfiguration, memberIds } from "./configuration.js";
import type { Random } from "./prng.js";
import { createRaftLog, type RaftLog } from "./raft-log.js";
import type { Configuration, HardState, HeldSnapshot, Message, PersistedState, ReadState, Role, Snapshot, SnapshotData, SnapshotMeta } from "./types.js";

/** The leader's view of one peer. */
export interface Progress {
  match: number;
  next: number;
  /** Heard from since the last check-quorum window. */
  active: boolean;
  /** Highest heartbeat round the peer acknowledged (ReadIndex). */
  ackSeq: number;
  /** Set while a snapshot is being sent: the next byte offset. */
  snapshotOffset: number | undefined;
  snapshotIndex: number;
}

export interface PendingRead {
  readonly ctx: string;
  readonly index: number;
  readonly seq: number;
}

export interface NodeSettings {
  readonly id: string;
  readonly random: Random;
  readonly electionMin: number;
  readonly electionMax: number;
  readonly heartbeatTicks: number;
  readonly preVote: boolean;
  readonly checkQuorum: boolean;
  readonly maxBatch: number;
  readonly chunkBytes: number;
  readonly checksum: ((data: SnapshotData) => Uint8Array) | undefined;
  readonly bootstrap: Configuration | undefined;
}

/** Everything one node knows; the modules of the core mutate it, the Ready carries it out. */
export interface NodeState extends NodeSettings {
  readonly log: RaftLog;
  term: number;
  votedFor: string;
  commit: number;
  applied: number;
  role: Role;
  leaderId: string;
  electionElapsed: number;
  heartbeatElapsed: number;
  randomizedTimeout: number;
  votes: Map<string, boolean>;
  progress: Map<string, Progress>;
  /** Heartbeat round counter, echoed by followers. */
  seq: number;
  transferTarget: string;
  transferElapsed: number;
  reads: PendingRead[];
  /** Pre-vote rounds this node started (a round that fails leaves the term as it was). */
  preVotes: number;
  incoming: { meta: SnapshotMeta; chunks: Uint8Array[]; size: number } | undefined;
  membership: Configuration;
  configIndex: number;
  // Output collected for the next Ready.
  messages: Message[];
  readStates: ReadState[];
  snapshotOut: HeldSnapshot | undefined;
  restore: Snapshot | undefined;
  lastHard: HardState;
}

export function createNodeState(settings: NodeSettings, persisted: PersistedState): NodeState {
  const log = createRaftLog(persisted.snapshot, persisted.entries);
  const s: NodeState = {
    ...settings, log,
    term: persisted.hardState.term, votedFor: persisted.hardState.votedFor,
    commit: Math.max(persisted.hardState.commit, log.snapshotIndex()), applied: log.snapshotIndex(),
    role: "follower", leaderId: "", electionElapsed: 0, heartbeatElapsed: 0, randomizedTimeout: settings.electionMin,
    votes: new Map(), progress: new Map(), seq: 0, transferTarget: "", transferElapsed: 0, reads: [], preVotes: 0, incoming: undefined,
    membership: emptyConfiguration, configIndex: 0,
    messages: [], readStates: [], snapshotOut: undefined, restore: undefined, lastHard: persisted.hardState,
  };
  refreshConfig(s);
  resetTimeout(s);
  return s;
}

export const lastIndex = (s: NodeState): number => s.log.lastIndex();

/** The leader committed an entry of its own term (its no-op): reads and config changes may proceed. */
export const ownTermCommitted = (s: NodeState): boolean => s.log.termAt(s.commit) === s.term;

/** The configuration in effect at `index`: the last CONFIG entry up to it, else the snapshot's, else bootstrap. */
export function configAt(s: NodeState, index: number): { config: Configuration; index: number } {
  for (let i = index; i > s.log.snapshotIndex(); i--) {
    const e = s.log.entry(i);
    if (e?.type === "config") return { config: decodeConfiguration(e.data), index: i };
  }
  return { config: s.log.snapshot?.meta.configuration ?? s.bootstrap ?? emptyConfiguration, index: s.log.snapshotIndex() };
}

export function refreshConfig(s: NodeState): void {
  const found = configAt(s, lastIndex(s));
  s.membership = found.config;
  s.configIndex = found.index;
  if (s.role !== "leader") return;
  const ids = new Set(memberIds(s.membership));
  for (const peer of s.progress.keys()) if (!ids.has(peer)) s.progress.delete(peer);
  for (const peer of ids) {
    if (peer !== s.id && !s.progress.has(peer)) s.progress.set(peer, newProgress(s));
  }
}

export function newProgress(s: NodeState): Progress {
  return { match: 0, next: lastIndex(s) + 1, active: true, ackSeq: 0, snapshotOffset: undefined, snapshotIndex: 0 };
}

export function resetTimeout(s: NodeState): void {
  s.electionElapsed = 0;
  s.randomizedTimeout = s.electionMin + Math.floor(s.random() * (s.electionMax - s.electionMin + 1));
}

export function becomeFollower(s: NodeState, newTerm: number, leader: string): void {
  if (newTerm > s.term) {
    s.term = newTerm;
    s.votedFor = "";
  }
  s.role = "follower";
  s.leaderId = leader;
  s.votes = new Map();
  s.transferTarget = "";
  s.reads = [];
  resetTimeout(s);
}
