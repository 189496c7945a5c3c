import type { RaftNode } from "../domain/raft-node.js";
import type { Entry, HardState } from "../domain/types.js";

/** Thrown on the first broken invariant; the message names it. */
export class SafetyViolation extends Error {
  override readonly name = "SafetyViolation";
}

const decoder = new TextDecoder();
const signature = (e: Entry): string => `${e.type}|${decoder.decode(e.data)}`;

/**
 * The Raft safety properties, checked incrementally as the simulation runs:
 * election safety, log matching (per persisted entry: same index and term
 * imply same content and same previous term, hence by induction the same
 * prefix), leader completeness, state-machine safety, and durable term/vote
 * monotonicity (no double vote after a crash).
 */
export interface SafetyChecks {
  leaderSeen(id: string, term: number, node: RaftNode): void;
  persisted(id: string, before: HardState, after: HardState, entries: readonly Entry[], prevTerm: number | undefined): void;
  applied(id: string, entry: Entry, leaders: readonly { id: string; node: RaftNode }[]): void;
  readonly leaderTerms: number;
}

export function createSafetyChecks(): SafetyChecks {
  const leaders = new Map<number, string>();
  const logs = new Map<string, string>();
  const committed = new Map<number, { term: number; sig: string }>();

  function completeness(id: string, node: RaftNode): void {
    const status = node.status();
    for (const [index, c] of committed) {
      if (index <= status.snapshotIndex) continue;
      if (node.termAt(index) !== c.term) throw new SafetyViolation(`leader completeness: leader ${id} (term ${status.term}) lacks committed entry ${index}/${c.term}`);
    }
  }

  return {
    leaderSeen(id, term, node) {
      const known = leaders.get(term);
      if (known === undefined) {
        leaders.set(term, id);
        completeness(id, node);
      } else if (known !== id) {
        throw new SafetyViolation(`election safety: ${known} and ${id} both leader in term ${term}`);
      }
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
    applied(id, entry, current) {
      const sig = signature(entry);
      const seen = committed.get(entry.index);
      if (seen === undefined) {
        committed.set(entry.index, { term: entry.term, sig });
        for (const l of current) {
          const s = l.node.status();
          if (s.term > entry.term && entry.index > s.snapshotIndex && l.node.termAt(entry.index) !== entry.term) {
            throw new SafetyViolation(`leader completeness: leader ${l.id} (term ${s.term}) lacks entry ${entry.index}/${entry.term} applied on ${id}`);
          }
        }
      } else if (seen.term !== entry.term || seen.sig !== sig) {
        throw new SafetyViolation(`state machine safety: ${id} applied ${entry.index}/${entry.term} but another node applied ${entry.index}/${seen.term}`);
      }
    },
    get leaderTerms() {
      return leaders.size;
    },
  };
}
