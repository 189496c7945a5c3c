import { isVoter, quorum } from "./configuration.js";
import { becomeFollower, lastIndex, refreshConfig, type NodeState, type Progress } from "./node-state.js";
import type { AppendRequest, AppendResponse, Message, SnapshotRequest } from "./types.js";

// Log replication: AppendEntries with fast backtracking, commit by quorum,
// ReadIndex confirmation by heartbeat acknowledgements (paper §5.3, thesis §6.4).

export function sendAppend(s: NodeState, to: string, p: Progress, resendSnapshot: boolean): void {
  if (p.snapshotOffset !== undefined) {
    if (resendSnapshot) sendSnapshotChunk(s, to, p);
    return;
  }
  if (p.next > lastIndex(s) + 1) p.next = lastIndex(s) + 1;
  const prevIndex = p.next - 1;
  const prevTerm = s.log.termAt(prevIndex);
  if (prevTerm === undefined) {
    p.snapshotOffset = 0;
    sendSnapshotChunk(s, to, p);
    return;
  }
  const entries = s.log.slice(p.next, Math.min(lastIndex(s), p.next + s.maxBatch - 1));
  const msg: AppendRequest = { type: "append", from: s.id, to, term: s.term, prevIndex, prevTerm, entries, commit: s.commit, seq: s.seq };
  s.messages.push(msg);
  const last = entries.at(-1);
  if (last) p.next = last.index + 1;
}

export function sendSnapshotChunk(s: NodeState, to: string, p: Progress): void {
  const snap = s.log.snapshot;
  if (!snap) return;
  if (p.snapshotIndex !== snap.meta.index) {
    p.snapshotIndex = snap.meta.index;
    p.snapshotOffset = 0;
  }
  const offset = p.snapshotOffset ?? 0;
  const data = snap.data.subarray(offset, offset + s.chunkBytes);
  const done = offset + data.length >= snap.data.length;
  const checksum = done && s.checksum ? s.checksum(snap.data) : new Uint8Array(0);
  const msg: SnapshotRequest = { type: "snapshot", from: s.id, to, term: s.term, meta: snap.meta, offset, data, done, checksum };
  s.messages.push(msg);
}

export function broadcast(s: NodeState, resendSnapshot: boolean): void {
  for (const [peer, p] of s.progress) sendAppend(s, peer, p, resendSnapshot);
}

export function maybeCommit(s: NodeState): void {
  if (s.role !== "leader") return;
  const matches = s.membership.voters.map((v) => (v.id === s.id ? lastIndex(s): (s.progress.get(v.id)?.match ?? 0))).sort((a, b) => b - a);
  const n = matches[quorum(s.membership) - 1] ?? 0;
  if (n > s.commit && s.log.termAt(n) === s.term) {
    s.commit = n;
    // A leader removed by a committed configuration steps down.
    if (s.commit >= s.configIndex && !isVoter(s.membership, s.id)) {
      broadcast(s, false);
      becomeFollower(s, s.term, "");
      return;
    }
    broadcast(s, false);
  }
}

export function advanceReads(s: NodeState): void {
  const q = quorum(s.membership);
  while (s.reads.length > 0) {
    const r = s.reads[0];
    if (!r) break;
    const acks = s.membership.voters.filter((v) => v.id === s.id || (s.progress.get(v.id)?.ackSeq ?? 0) >= r.seq).length;
    if (acks < q) break;
    s.readStates.push({ ctx: r.ctx, index: r.index });
    s.reads.shift();
  }
}

export function respondStale(s: NodeState, m: Message): void {
  if (m.type === "append") {
    s.messages.push({ type: "appendResp", from: s.id, to: m.from, term: s.term, success: false, matchIndex: 0, conflictTerm: 0, conflictIndex: 0, lastIndex: lastIndex(s), seq: 0 });
  } else if (m.type === "snapshot") {
    s.messages.push({ type: "snapshotResp", from: s.id, to: m.from, term: s.term, index: m.meta.index, nextOffset: 0, installed: false });
  } else if (m.type === "vote" && m.preVote) {
    s.messages.push({ type: "voteResp", from: s.id, to: m.from, term: s.term, granted: false, preVote: true });
  }
}

export function hearFromLeader(s: NodeState, from: string): void {
  if (s.role !== "follower") becomeFollower(s, s.term, from);
  s.leaderId = from;
  s.electionElapsed = 0;
}

export function handleAppend(s: NodeState, m: AppendRequest): void {
  hearFromLeader(s, m.from);
  const base = s.log.snapshotIndex();
  const reply = (fields: Partial<AppendResponse>): void => {
    s.messages.push({ type: "appendResp", from: s.id, to: m.from, term: s.term, success: false, matchIndex: 0, conflictTerm: 0, conflictIndex: 0, lastIndex: lastIndex(s), seq: m.seq, ...fields });
  };
  let prevIndex = m.prevIndex;
  let prevTerm = m.prevTerm;
  let entries = m.entries;
  if (prevIndex < base) {
    // Everything up to the snapshot is committed and therefore matches.
    entries = entries.filter((e) => e.index > base);
    if (entries.length === 0) return reply({ success: true, matchIndex: m.prevIndex + m.entries.length });
    prevIndex = base;
    prevTerm = s.log.snapshotTerm();
  }
  const have = s.log.termAt(prevIndex);
  if (have !== prevTerm) {
    if (have === undefined) return reply({ conflictTerm: 0, conflictIndex: lastIndex(s) + 1 });
    let first = prevIndex;
    while (first - 1 > base && s.log.termAt(first - 1) === have) first--;
    return reply({ conflictTerm: have, conflictIndex: first });
  }
  for (const [k, e] of entries.entries()) {
    if (s.log.termAt(e.index) === e.term) continue;
    if (e.index <= s.commit) throw new Error(`raft invariant: leader ${m.from} conflicts with committed entry ${e.index} on ${s.id}`);
    const rest = entries.slice(k);
    const truncates = e.index <= lastIndex(s);
    s.log.append(rest);
    if (truncates || rest.some((r) => r.type === "config")) refreshConfig(s);
    break;
  }
  const lastNew = prevIndex + entries.length;
  s.commit = Math.max(s.commit, Math.min(m.commit, lastNew));
  reply({ success: true, matchIndex: lastNew });
}

export function handleAppendResp(s: NodeState, m: AppendResponse): void {
  const p = s.progress.get(m.from);
  if (s.role !== "leader" || !p) return;
  p.active = true;
  p.ackSeq = Math.max(p.ackSeq, m.seq);
  if (m.success) {
    if (m.matchIndex > p.match) {
      p.match = m.matchIndex;
      maybeCommit(s);
    }
    if (s.role !== "leader") return;
    if (p.next <= p.match) p.next = p.match + 1;
    if (s.transferTarget === m.from && p.match === lastIndex(s)) s.messages.push({ type: "timeoutNow", from: s.id, to: m.from, term: s.term });
    else if (p.next <= lastIndex(s)) sendAppend(s, m.from, p, false);
  } else if (m.conflictIndex > 0) {
    let next = m.conflictIndex;
    if (m.conflictTerm > 0) {
      let i = lastIndex(s);
      while (i > s.log.snapshotIndex() && (s.log.termAt(i) ?? 0) > m.conflictTerm) i--;
      if (s.log.termAt(i) === m.conflictTerm) next = i + 1;
    }
    next = Math.max(p.match + 1, Math.min(next, lastIndex(s) + 1));
    if (next < p.next && p.snapshotOffset === undefined) {
      p.next = next;
      sendAppend(s, m.from, p, false);
    }
  }
  advanceReads(s);
}
