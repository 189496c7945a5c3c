import type { Configuration, NodeStatus, Role } from "../domain/types.js";

/** Metrics the KMS publishes (contract names), as plain numbers. */
export interface ConsensusMetrics {
  /** Incremented each time this node's term increases. */
  readonly consens_elections: number;
  /**
   * Pre-vote rounds this node started (reference/consensus.md §5's optional
   * `kms_raft_prevotes_started_total`, without the `_total` that the
   * contract's text format never adds): a round that fails leaves the term, and so
   * consens_elections, unchanged, yet still means this node missed its leader.
   */
  readonly kms_raft_prevotes_started: number;
  readonly consens_term: number;
  /** 1 when this node is the leader. */
  readonly consens_leader: 0 | 1;
  readonly consens_commit_index: number;
  readonly consens_applied_index: number;
  /** Voters in the current configuration. */
  readonly consens_nodes: number;
}

export interface PeerReport {
  readonly id: string;
  readonly voter: boolean;
  /** Leader only: the highest index known replicated on the peer. */
  readonly match: number | undefined;
  /** Recent AppendEntries round trips in ms, oldest first (at most 64). */
  readonly rttMs: readonly number[];
  /** ms since the last answer from the peer; undefined when it never answered. */
  readonly lastContactMs: number | undefined;
  /** Outcome of the last message when it failed: lost to a timeout, or no responders (unreachable). */
  readonly lastError: "timeout" | "unreachable" | "error" | undefined;
}

export interface RunnerStatus {
  readonly id: string;
  readonly clusterId: string;
  readonly role: Role;
  readonly term: number;
  readonly leaderId: string;
  readonly commitIndex: number;
  readonly appliedIndex: number;
  readonly lastIndex: number;
  readonly snapshotIndex: number;
  /** True when the snapshot at snapshotIndex is read from its file when a follower needs it, not held in memory. */
  readonly snapshotOnDisk: boolean;
  readonly configuration: Configuration;
  readonly metrics: ConsensusMetrics;
  readonly peers: readonly PeerReport[];
  /** Operator warnings: an even voter count, slow peers (round trip above 10 ms). */
  readonly warnings: readonly string[];
  /** True when a leader is known and everything known committed is applied (readiness). */
  readonly ready: boolean;
}

export interface PeerStats {
  rtt: number[];
  lastContact: number | undefined;
  lastError: "timeout" | "unreachable" | "error" | undefined;
}

export function buildStatus(clusterId: string, s: NodeStatus, applied: number, elections: number, peers: ReadonlyMap<string, PeerStats>, now: number, snapshotOnDisk = false): RunnerStatus {
  const ids = [...s.configuration.voters, ...s.configuration.learners].map((m) => m.id).filter((p) => p !== s.id);
  const reports: PeerReport[] = ids.map((id) => {
    const stats = peers.get(id);
    const progress = s.peers.find((p) => p.id === id);
    return {
      id,
      voter: s.configuration.voters.some((v) => v.id === id),
      match: s.role === "leader" ? progress?.match : undefined,
      rttMs: [...(stats?.rtt ?? [])],
      lastContactMs: stats?.lastContact === undefined ? undefined : now - stats.lastContact,
      lastError: stats?.lastError,
    };
  });
  const warnings: string[] = [];
  const voters = s.configuration.voters.length;
  if (voters > 0 && voters % 2 === 0) warnings.push(`${voters} voters: an even count adds no fault tolerance over ${voters - 1}`);
  for (const p of reports) {
    const recent = p.rttMs.slice(-8);
    const median = [...recent].sort((a, b) => a - b)[Math.floor(recent.length / 2)];
    if (median !== undefined && median > 10) warnings.push(`round trip to ${p.id} is ${median.toFixed(1)} ms (above 10 ms)`);
  }
  return {
    id: s.id, clusterId, role: s.role, term: s.term, leaderId: s.leaderId, commitIndex: s.commit, appliedIndex: applied,
    lastIndex: s.lastIndex, snapshotIndex: s.snapshotIndex, snapshotOnDisk, configuration: s.configuration,
    metrics: {
      consens_elections: elections, kms_raft_prevotes_started: s.preVotes, consens_term: s.term, consens_leader: s.role === "leader" ? 1 : 0,
      consens_commit_index: s.commit, consens_applied_index: applied, consens_nodes: voters,
    },
    peers: reports, warnings, ready: s.leaderId !== "" && applied >= s.commit,
  };
}
