import type { AppendRequest } from "./types.js";

/**
 * Folds a later AppendEntries to the same peer into an earlier one that has
 * not been sent yet, so a busy leader sends one batch per round trip instead
 * of one message per proposal. Undefined when `later` does not continue
 * `earlier` (another term, or the leader backed up): `later` then replaces
 * it, and `earlier` counts as a lost message, which Raft tolerates.
 */
export function mergeAppends(earlier: AppendRequest, later: AppendRequest): AppendRequest | undefined {
  if (earlier.term !== later.term || earlier.from !== later.from || earlier.to !== later.to) return undefined;
  const end = earlier.prevIndex + earlier.entries.length;
  if (later.prevIndex !== end) return undefined;
  return {
    ...earlier,
    entries: later.entries.length === 0 ? earlier.entries : [...earlier.entries, ...later.entries],
    commit: Math.max(earlier.commit, later.commit),
    seq: Math.max(earlier.seq, later.seq),
  };
}
