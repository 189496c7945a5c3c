import { lastIndex, refreshConfig, type NodeState } from "./node-state.js";
import { hearFromLeader, maybeCommit, sendAppend, sendSnapshotChunk } from "./replication.js";
import type { Snapshot, SnapshotRequest, SnapshotResponse } from "./types.js";

// InstallSnapshot: chunks in order on the follower, progress on the leader (thesis ch. 5).

export function handleSnapshot(s: NodeState, m: SnapshotRequest): void {
  hearFromLeader(s, m.from);
  const reply = (nextOffset: number, installed: boolean): void => {
    const msg: SnapshotResponse = { type: "snapshotResp", from: s.id, to: m.from, term: s.term, index: m.meta.index, nextOffset, installed };
    s.messages.push(msg);
  };
  if (m.meta.index <= s.commit) {
    s.incoming = undefined;
    return reply(0, true);
  }
  if (m.offset === 0) s.incoming = { meta: m.meta, chunks: [], size: 0 };
  const same = s.incoming !== undefined && s.incoming.meta.index === m.meta.index && s.incoming.meta.term === m.meta.term;
  if (!s.incoming || !same || s.incoming.size !== m.offset) return reply(same && s.incoming ? s.incoming.size : 0, false);
  s.incoming.chunks.push(m.data.slice());
  s.incoming.size += m.data.length;
  if (!m.done) return reply(s.incoming.size, false);
  const data = new Uint8Array(s.incoming.size);
  let at = 0;
  for (const c of s.incoming.chunks) {
    data.set(c, at);
    at += c.length;
  }
  s.incoming = undefined;
  if (m.checksum.length > 0 && s.checksum && !sameBytes(s.checksum(data), m.checksum)) return reply(0, false); // corrupt: start over
  const snap: Snapshot = { meta: m.meta, data };
  s.log.installSnapshot(snap);
  s.commit = Math.max(s.commit, m.meta.index);
  s.applied = m.meta.index;
  refreshConfig(s);
  s.snapshotOut = snap;
  s.restore = snap;
  reply(data.length, true);
}

export function handleSnapshotResp(s: NodeState, m: SnapshotResponse): void {
  const p = s.progress.get(m.from);
  if (s.role !== "leader" || !p) return;
  p.active = true;
  if (m.installed) {
    p.match = Math.max(p.match, m.index);
    p.next = Math.max(p.next, p.match + 1);
    if (p.snapshotOffset !== undefined) p.next = p.match + 1;
    p.snapshotOffset = undefined;
    maybeCommit(s);
    if (s.role === "leader" && p.next <= lastIndex(s)) sendAppend(s, m.from, p, false);
  } else if (p.snapshotOffset !== undefined && m.index === p.snapshotIndex && m.nextOffset !== p.snapshotOffset) {
    p.snapshotOffset = m.nextOffset;
    sendSnapshotChunk(s, m.from, p);
  }
  // An answer naming the offset already being sent is the answer to a duplicate (a
  // heartbeat's resend, or a chunk the follower already had): the chunk at that
  // offset is in flight, and sending it again here would start a second stream of
  // chunks beside the first, one more per heartbeat. A lost chunk is resent by the
  // next heartbeat (broadcast with resendSnapshot).
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
