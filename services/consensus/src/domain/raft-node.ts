import { applyChange, encodeConfiguration, isVoter, quorum } from "./configuration.js";
import { handleVote, hup, poll } from "./election.js";
import type { Random } from "./prng.js";
import { becomeFollower, configAt, createNodeState, lastIndex, ownTermCommitted, refreshConfig, type NodeState } from "./node-state.js";
import { advanceReads, broadcast, handleAppend, handleAppendResp, maybeCommit, respondStale, sendAppend } from "./replication.js";
import { handleSnapshot, handleSnapshotResp } from "./snapshot-transfer.js";
import type { Configuration, Entry, HardState, HeldSnapshot, MembershipChange, Message, NodeStatus, PersistedState, Ready, RejectReason, Result, SnapshotData, SnapshotMeta } from "./types.js";

export interface RaftConfig {
  readonly id: string;
  /** Seeded randomness for election timeouts (see createPrng). */
  readonly random: Random;
  /** Randomized election timeout range in ticks (default 15..30: 150-300 ms at 10 ms ticks). */
  readonly electionTicksMin?: number;
  readonly electionTicksMax?: number;
  /** Heartbeat interval in ticks (default 5: 50 ms at 10 ms ticks). */
  readonly heartbeatTicks?: number;
  readonly preVote?: boolean;
  readonly checkQuorum?: boolean;
  /** Most entries in one AppendEntries (batching of proposals). */
  readonly maxBatch?: number;
  readonly snapshotChunkBytes?: number;
  /** Whole-snapshot checksum (SHA-256 in production), sent on the last chunk and verified by the receiver. */
  readonly checksum?: (data: SnapshotData) => Uint8Array;
  /** Membership when the persisted state holds none (every founding node gets the same). */
  readonly bootstrap?: Configuration;
}

export interface RaftNode {
  tick(): Ready;
  step(message: Message): Ready;
  /** Starts an election now (tests and single-node start-up). */
  campaign(): Ready;
  propose(data: Uint8Array | readonly Uint8Array[]): Result<{ readonly index: number; readonly term: number; readonly ready: Ready }>;
  /** Registers a linearizable read; its ReadState comes in a later Ready once a quorum confirmed leadership. */
  readIndex(ctx: string): Result<{ readonly ready: Ready }>;
  transferLeadership(to: string): Result<{ readonly ready: Ready }>;
  changeMembership(change: MembershipChange): Result<{ readonly index: number; readonly term: number; readonly configuration: Configuration; readonly ready: Ready }>;
  /**
   * The leader reported entry (index, term) committed (a forwarded proposal's
   * answer). A node holding that same entry holds the leader's log up to it
   * (log matching), so it may commit that far without waiting for the next
   * AppendEntries; otherwise nothing changes.
   */
  learnCommit(index: number, term: number): Ready;
  /**
   * The state machine's snapshot at applied index `index`: the log before it
   * is dropped. `data` may read from the snapshot's file (written before).
   */
  compact(index: number, data: SnapshotData): Ready;
  /**
   * The metadata `compact(index, …)` would give its snapshot now, undefined
   * when it would ignore the index (not applied, or already compacted): the
   * runner stores the snapshot file before it compacts.
   */
  snapshotMeta(index: number): SnapshotMeta | undefined;
  /**
   * The bytes of the snapshot at the base of the log, from where the runner
   * stored them (read a piece at a time when a follower needs them), in place
   * of the copy in memory; false, and nothing changes, when the base is
   * another snapshot by now.
   */
  holdSnapshotData(meta: { readonly index: number; readonly term: number }, data: SnapshotData): boolean;
  status(): NodeStatus;
  /** Term of the entry at `index` in this node's log (undefined if compacted or absent); for checkers. */
  termAt(index: number): number | undefined;
}

function metaAt(s: NodeState, index: number): SnapshotMeta | undefined {
  const t = s.log.termAt(index);
  if (index <= s.log.snapshotIndex() || index > s.applied || t === undefined) return undefined;
  return { index, term: t, configuration: configAt(s, index).config };
}

function step(s: NodeState, m: Message): void {
  if (m.term > s.term) {
    // Leader stickiness: ignore a disruptive candidate while a leader is heard from.
    if (m.type === "vote" && !m.transfer && (s.checkQuorum || m.preVote) && s.leaderId !== "" && s.electionElapsed < s.electionMin) return;
    const keepTerm = (m.type === "vote" && m.preVote) || (m.type === "voteResp" && m.preVote && m.granted);
    if (!keepTerm) becomeFollower(s, m.term, m.type === "append" || m.type === "snapshot" || m.type === "timeoutNow" ? m.from : "");
  } else if (m.term < s.term) {
    respondStale(s, m);
    return;
  }
  switch (m.type) {
    case "vote":
      return handleVote(s, m);
    case "voteResp":
      if (s.role === "preCandidate" && m.preVote && (!m.granted || m.term === s.term + 1) && !s.votes.has(m.from)) {
        s.votes.set(m.from, m.granted);
        poll(s);
      } else if (s.role === "candidate" && !m.preVote && !s.votes.has(m.from)) {
        s.votes.set(m.from, m.granted);
        poll(s);
      }
      return;
    case "append":
      return handleAppend(s, m);
    case "appendResp":
      return handleAppendResp(s, m);
    case "snapshot":
      return handleSnapshot(s, m);
    case "snapshotResp":
      return handleSnapshotResp(s, m);
    case "timeoutNow":
      if (s.role !== "leader") hup(s, true);
      return;
  }
}

function tick(s: NodeState): void {
  if (s.role !== "leader") {
    if (++s.electionElapsed >= s.randomizedTimeout) {
      s.electionElapsed = 0;
      hup(s, false);
    }
    return;
  }
  s.heartbeatElapsed++;
  s.electionElapsed++;
  if (s.transferTarget !== "" && ++s.transferElapsed >= s.electionMax) s.transferTarget = "";
  if (s.electionElapsed >= s.electionMin) {
    s.electionElapsed = 0;
    if (s.checkQuorum) {
      // Check-quorum: step down unless a majority answered in the last window.
      const active = s.membership.voters.filter((v) => v.id === s.id || s.progress.get(v.id)?.active === true).length;
      for (const p of s.progress.values()) p.active = false;
      if (active < quorum(s.membership)) return becomeFollower(s, s.term, "");
    }
  }
  if (s.heartbeatElapsed >= s.heartbeatTicks) {
    s.heartbeatElapsed = 0;
    s.seq++;
    broadcast(s, true);
  }
}

function flush(s: NodeState): Ready {
  const hs: HardState = { term: s.term, votedFor: s.votedFor, commit: s.commit };
  const changed = hs.term !== s.lastHard.term || hs.votedFor !== s.lastHard.votedFor || hs.commit !== s.lastHard.commit;
  s.lastHard = hs;
  const committed = s.applied < s.commit ? s.log.slice(s.applied + 1, s.commit) : [];
  s.applied = Math.max(s.applied, s.commit);
  const ready: Ready = {
    hardState: changed ? hs : undefined, entries: s.log.takeUnstable(), snapshot: s.snapshotOut,
    messages: s.messages, restore: s.restore, committed, readStates: s.readStates,
  };
  s.messages = [];
  s.readStates = [];
  s.snapshotOut = undefined;
  s.restore = undefined;
  return ready;
}

export function createRaftNode(config: RaftConfig, persisted: PersistedState): RaftNode {
  const s = createNodeState(
    {
      id: config.id, random: config.random, electionMin: config.electionTicksMin ?? 15, electionMax: config.electionTicksMax ?? 30,
      heartbeatTicks: config.heartbeatTicks ?? 5, preVote: config.preVote ?? true, checkQuorum: config.checkQuorum ?? true,
      maxBatch: config.maxBatch ?? 64, chunkBytes: config.snapshotChunkBytes ?? 64 * 1024, bootstrap: config.bootstrap,
      checksum: config.checksum,
    },
    persisted,
  );
  const reject = (reason: RejectReason): { ok: false; reason: RejectReason; leaderId: string; ready: Ready } => ({ ok: false, reason, leaderId: s.leaderId, ready: flush(s) });

  return {
    tick() {
      tick(s);
      return flush(s);
    },
    step(m) {
      step(s, m);
      return flush(s);
    },
    campaign() {
      hup(s, false);
      return flush(s);
    },
    propose(data) {
      if (s.role !== "leader") return reject("not_leader");
      if (s.transferTarget !== "") return reject("transferring");
      const list = data instanceof Uint8Array ? [data] : data;
      const first = lastIndex(s) + 1;
      s.log.append(list.map((d, k): Entry => ({ index: first + k, term: s.term, type: "normal", data: d })));
      maybeCommit(s);
      broadcast(s, false);
      return { ok: true, index: first, term: s.term, ready: flush(s) };
    },
    readIndex(ctx) {
      if (s.role !== "leader") return reject("not_leader");
      if (!ownTermCommitted(s)) return reject("not_ready");
      s.seq++;
      s.reads.push({ ctx, index: s.commit, seq: s.seq });
      advanceReads(s);
      if (s.reads.length > 0) broadcast(s, false);
      return { ok: true, ready: flush(s) };
    },
    transferLeadership(to) {
      if (s.role !== "leader") return reject("not_leader");
      if (to === s.id) return { ok: true, ready: flush(s) };
      const p = s.progress.get(to);
      if (!isVoter(s.membership, to) || !p) return reject("invalid");
      s.transferTarget = to;
      s.transferElapsed = 0;
      if (p.match === lastIndex(s)) s.messages.push({ type: "timeoutNow", from: s.id, to, term: s.term });
      else sendAppend(s, to, p, true);
      return { ok: true, ready: flush(s) };
    },
    changeMembership(change) {
      if (s.role !== "leader") return reject("not_leader");
      // The single-server-change fix: first commit an entry of this term.
      if (!ownTermCommitted(s)) return reject("not_ready");
      if (s.configIndex > s.commit) return reject("config_pending");
      if (s.transferTarget !== "") return reject("transferring");
      const next = applyChange(s.membership, change);
      if (!next) return reject("invalid");
      const index = lastIndex(s) + 1;
      s.log.append([{ index, term: s.term, type: "config", data: encodeConfiguration(next) }]);
      refreshConfig(s);
      maybeCommit(s);
      broadcast(s, false);
      return { ok: true, index, term: s.term, configuration: next, ready: flush(s) };
    },
    learnCommit(index, term) {
      if (index > s.commit && s.log.termAt(index) === term) s.commit = index;
      return flush(s);
    },
    compact(index, data) {
      const meta = metaAt(s, index);
      if (!meta) return flush(s);
      const snap: HeldSnapshot = { meta, data };
      s.log.installSnapshot(snap);
      s.snapshotOut = snap;
      return flush(s);
    },
    snapshotMeta: (index) => metaAt(s, index),
    holdSnapshotData: (meta, data) => s.log.holdSnapshotData(meta, data),
    termAt: (index) => s.log.termAt(index),
    status() {
      return {
        id: s.id, role: s.role, term: s.term, votedFor: s.votedFor, leaderId: s.leaderId, commit: s.commit, applied: s.applied,
        firstIndex: s.log.firstIndex(), lastIndex: lastIndex(s), lastTerm: s.log.lastTerm(), snapshotIndex: s.log.snapshotIndex(),
        configuration: s.membership, configIndex: s.configIndex, transferTarget: s.transferTarget, preVotes: s.preVotes,
        peers: [...s.progress].map(([peer, p]) => ({ id: peer, match: p.match, next: p.next, voter: isVoter(s.membership, peer), snapshotOffset: p.snapshotOffset })),
      };
    },
  };
}
