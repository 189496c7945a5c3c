import type { RaftNode } from "../domain/raft-node.js";
import type { Entry, HardState } from "../domain/types.js";

/** Thrown on the first broken invariant; the message names it. */
export class SafetyViolation extends Error {
  override readonly name = "SafetyViolation";
}

const decoder = new TextDecoder();
const signature = (e: Entry): string => `${e.type}|${decoder.decode(e.data)}`;

export interface ObservedLeader {
  readonly id: string;
  readonly node: RaftNode;
}

/**
 * The Raft safety properties, checked incrementally as the simulation runs:
 * election safety, log matching (per persisted entry: same index and term
 * imply same content and same previous term, hence by induction the same
 * prefix), leader completeness, state-machine safety, and durable term/vote
 * monotonicity (no double vote after a crash).
 *
 * Leader completeness is about the term in which an entry was *committed*,
 * not the entry's own term (paper §5.4): an entry of term 1 that only its
 * leader held may be overwritten by a leader of term 2 and still be committed
 * later by a leader of term 3, and a stale, partitioned leader of term 2 that
 * lacks it breaks nothing. So the checker records, for every index, the term
 * of the node that first held it as committed (a leader, or a follower that
 * learned it from a leader of its own term: an upper bound, which can only
 * make the check stricter about fewer leaders, never wrong about one).
 */
export interface SafetyChecks {
  /** After every step of a node: its role, term and commit index as they are now. */
  observed(id: string, node: RaftNode, leaders: () => readonly ObservedLeader[]): void;
  persisted(id: string, before: HardState, after: HardState, entries: readonly Entry[], prevTerm: number | undefined): void;
  applied(id: string, entry: Entry): void;
  readonly leaderTerms: number;
}

interface Commit {
  /** Term of the node that first held the index as committed. */
  readonly commitTerm: number;
  /** Term of the entry itself, once some node could tell it. */
  term: number | undefined;
}

export function createSafetyChecks(): SafetyChecks {
  const leaders = new Map<number, string>();
  const logs = new Map<string, string>();
  const applied = new Map<number, { term: number; sig: string }>();
  const commits = new Map<number, Commit>();
  let watermark = 0;

  function mustHold(leader: ObservedLeader, index: number, c: Commit): void {
    const s = leader.node.status();
    if (c.term === undefined || s.term <= c.commitTerm || index <= s.snapshotIndex) return;
    if (leader.node.termAt(index) !== c.term) {
      throw new SafetyViolation(`leader completeness: leader ${leader.id} (term ${s.term}) lacks entry ${index}/${c.term}, committed in term ${c.commitTerm}`);
    }
  }

  return {
    observed(id, node, current) {
      const s = node.status();
      if (s.role === "leader") {
        const known = leaders.get(s.term);
        if (known === undefined) {
          leaders.set(s.term, id);
          for (const [index, c] of commits) mustHold({ id, node }, index, c);
        } else if (known !== id) {
          throw new SafetyViolation(`election safety: ${known} and ${id} both leader in term ${s.term}`);
        }
      }
      if (s.commit <= watermark) return;
      const fresh: number[] = [];
      for (let i = watermark + 1; i <= s.commit; i++) {
        commits.set(i, { commitTerm: s.term, term: node.termAt(i) ?? applied.get(i)?.term });
        fresh.push(i);
      }
      watermark = s.commit;
      for (const l of current()) for (const i of fresh) mustHold(l, i, commits.get(i) as Commit);
    },
    persisted(id, before, after, entries, prevTerm) {
      if (after.term < before.term) throw new SafetyViolation(`${id}: durable term went back from ${before.term} to ${after.term}`);
      if (after.term === before.term && before.votedFor !== "" && after.votedFor !== before.votedFor) {
        throw new SafetyViolation(`${id}: voted for ${before.votedFor} and then ${after.votedFor} in term ${after.term}`);
      }
      let prev = prevTerm;
      for (const e of entries) {
        const key = `${e.index}/${e.term}`;
        const sig = `${prev ?? "?"}|${signature(e)}`;
        const seen = logs.get(key);
        if (seen === undefined) logs.set(key, sig);
        else if (seen !== sig && prev !== undefined && !seen.startsWith("?")) {
          throw new SafetyViolation(`log matching: entry ${key} on ${id} differs from another node's (${sig.slice(0, 60)} vs ${seen.slice(0, 60)})`);
        }
        prev = e.term;
      }
    },
    applied(id, entry) {
      const c = commits.get(entry.index);
      if (!c) throw new SafetyViolation(`${id} applied ${entry.index}/${entry.term}, which no node holds as committed`);
      if (c.term === undefined) c.term = entry.term;
      else if (c.term !== entry.term) throw new SafetyViolation(`state machine safety: ${id} applied ${entry.index}/${entry.term} but ${entry.index}/${c.term} was committed`);
      const sig = signature(entry);
      const seen = applied.get(entry.index);
      if (seen === undefined) applied.set(entry.index, { term: entry.term, sig });
      else if (seen.term !== entry.term || seen.sig !== sig) {
        throw new SafetyViolation(`state machine safety: ${id} applied ${entry.index}/${entry.term} but another node applied ${entry.index}/${seen.term}`);
      }
    },
    get leaderTerms() {
      return leaders.size;
    },
  };
}
