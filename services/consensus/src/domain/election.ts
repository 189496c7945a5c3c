import { isVoter, quorum } from "./configuration.js";
import { becomeFollower, lastIndex, refreshConfig, resetTimeout, type NodeState } from "./node-state.js";
import { broadcast, maybeCommit } from "./replication.js";
import type { VoteRequest } from "./types.js";

// Elections: pre-vote, campaigns, vote counting and granting (paper §5.2, thesis §9.6).

export function becomeLeader(s: NodeState): void {
  s.role = "leader";
  s.leaderId = s.id;
  s.transferTarget = "";
  s.heartbeatElapsed = 0;
  s.electionElapsed = 0;
  s.progress = new Map();
  refreshConfig(s);
  // The no-op of this term: commits earlier terms' entries and unblocks
  // ReadIndex and configuration changes (the single-server-change fix).
  s.log.append([{ index: lastIndex(s) + 1, term: s.term, type: "noop", data: new Uint8Array(0) }]);
  maybeCommit(s);
  broadcast(s, false);
}

export function hup(s: NodeState, transfer: boolean): void {
  if (s.role === "leader" || !isVoter(s.membership, s.id)) return;
  if (s.preVote && !transfer) {
    s.role = "preCandidate";
    s.preVotes += 1;
    s.leaderId = "";
    s.votes = new Map([[s.id, true]]);
    resetTimeout(s);
    requestVotes(s, true, false);
  } else {
    campaign(s, transfer);
  }
}

export function requestVotes(s: NodeState, pre: boolean, transfer: boolean): void {
  if (poll(s)) return;
  for (const v of s.membership.voters) {
    if (v.id === s.id) continue;
    const msg: VoteRequest = {
      type: "vote", from: s.id, to: v.id, term: pre ? s.term + 1 : s.term,
      lastLogIndex: lastIndex(s), lastLogTerm: s.log.lastTerm(), preVote: pre, transfer,
    };
    s.messages.push(msg);
  }
}

export function poll(s: NodeState): boolean {
  let granted = 0;
  let rejected = 0;
  for (const v of s.membership.voters) {
    const vote = s.votes.get(v.id);
    if (vote === true) granted++;
    else if (vote === false) rejected++;
  }
  const q = quorum(s.membership);
  if (granted >= q) {
    if (s.role === "preCandidate") campaign(s, false);
    else becomeLeader(s);
    return true;
  }
  if (rejected >= q) {
    becomeFollower(s, s.term, "");
    return true;
  }
  return false;
}

export function campaign(s: NodeState, transfer: boolean): void {
  s.term += 1;
  s.votedFor = s.id;
  s.role = "candidate";
  s.leaderId = "";
  s.votes = new Map([[s.id, true]]);
  resetTimeout(s);
  requestVotes(s, false, transfer);
}

export function handleVote(s: NodeState, m: VoteRequest): void {
  const upToDate = m.lastLogTerm > s.log.lastTerm() || (m.lastLogTerm === s.log.lastTerm() && m.lastLogIndex >= lastIndex(s));
  const canVote = s.votedFor === m.from || (s.votedFor === "" && s.leaderId === "") || (m.preVote && m.term > s.term);
  const granted = canVote && upToDate;
  if (granted && !m.preVote) {
    s.votedFor = m.from;
    resetTimeout(s);
  }
  s.messages.push({ type: "voteResp", from: s.id, to: m.from, term: granted && m.preVote ? m.term : s.term, granted, preVote: m.preVote });
}
