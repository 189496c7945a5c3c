/**
 * Whether a member should snapshot now. Every member applies the same
 * entries, so a plain "every N entries" rule makes all of them snapshot at
 * the same entry: on shared cores the whole cluster then encodes at once and
 * writes wait on every node together. Instead each member snapshots when its
 * applied index crosses a point of a grid of `interval` entries shifted by
 * its rank among the members (a third of the interval apart in a group of
 * three), so at most one member of a quorum is busy with a snapshot when the
 * entries arrive steadily. The grid is absolute, so the stagger survives
 * restarts. At least half an interval always separates two snapshots of one
 * member (a late snapshot is not followed at once by the next).
 */
export function snapshotDue(p: { readonly applied: number; readonly last: number; readonly interval: number; readonly rank: () => { readonly rank: number; readonly members: number } }): boolean {
  const interval = Math.max(1, Math.floor(p.interval));
  if (p.applied - p.last < Math.max(1, Math.ceil(interval / 2))) return false;
  // Asked only past the half interval: the caller may have to look up its configuration for it.
  const { rank, members } = p.rank();
  const phase = members > 1 ? Math.floor((interval * (((rank % members) + members) % members)) / members) : 0;
  const point = (index: number): number => Math.floor((index + phase) / interval);
  // A gap of a whole interval always crosses a grid point, so this alone also bounds the gap.
  return point(p.applied) > point(p.last);
}

/** This member's rank among the sorted ids of `members` (0 when it is not one of them). */
export function rankOf(id: string, members: readonly string[]): { rank: number; members: number } {
  const sorted = [...members].sort();
  return { rank: Math.max(0, sorted.indexOf(id)), members: Math.max(1, sorted.length) };
}
