import type { RaftNode } from "../domain/raft-node.js";
import type { Message } from "../domain/types.js";

// Human-readable lines for `npm run sim -- --verbose`: a failing seed should
// be read from its trace, not guessed at.

/** One message on one line: type, route, term and the fields that decide its effect. */
export function describeMessage(m: Message): string {
  const head = `${m.type} ${m.from}->${m.to} t${m.term}`;
  switch (m.type) {
    case "vote":
      return `${head}${m.preVote ? " pre" : ""}${m.transfer ? " transfer" : ""} last ${m.lastLogIndex}/${m.lastLogTerm}`;
    case "voteResp":
      return `${head}${m.preVote ? " pre" : ""} ${m.granted ? "granted" : "rejected"}`;
    case "append": {
      const span = m.entries.length === 0 ? "heartbeat" : `[${m.entries[0]?.index ?? 0}..${m.entries.at(-1)?.index ?? 0}]@${[...new Set(m.entries.map((e) => e.term))].join(",")}`;
      return `${head} prev ${m.prevIndex}/${m.prevTerm} ${span} commit ${m.commit} seq ${m.seq}`;
    }
    case "appendResp":
      return m.success ? `${head} ok match ${m.matchIndex} seq ${m.seq}` : `${head} reject conflict ${m.conflictIndex}/${m.conflictTerm} last ${m.lastIndex}`;
    case "snapshot":
      return `${head} snap ${m.meta.index}/${m.meta.term} off ${m.offset} +${m.data.length}${m.done ? " done" : ""}`;
    case "snapshotResp":
      return `${head} snap ${m.index} next ${m.nextOffset}${m.installed ? " installed" : ""}`;
    case "timeoutNow":
      return head;
  }
}

/** The log as runs of terms, e.g. `snap 4/1 | 5-9@1 10-12@3`. */
export function describeLog(node: RaftNode): string {
  const s = node.status();
  const runs: string[] = [];
  let start = s.snapshotIndex + 1;
  let term = node.termAt(start);
  for (let i = start + 1; i <= s.lastIndex + 1; i++) {
    const t = i <= s.lastIndex ? node.termAt(i) : undefined;
    if (t !== term) {
      runs.push(start === i - 1 ? `${start}@${term ?? "?"}` : `${start}-${i - 1}@${term ?? "?"}`);
      start = i;
      term = t;
    }
  }
  const snap = s.snapshotIndex > 0 ? `snap ${s.snapshotIndex}/${node.termAt(s.snapshotIndex) ?? "?"} | ` : "";
  return `${snap}${runs.join(" ") || "empty"}`;
}

/** A node's durable and volatile Raft state after a step. */
export function describeNode(id: string, node: RaftNode): string {
  const s = node.status();
  const vote = s.votedFor === "" ? "-" : s.votedFor;
  return `${id} ${s.role} t${s.term} vote ${vote} leader ${s.leaderId || "-"} commit ${s.commit} applied ${s.applied} log ${describeLog(node)}`;
}
