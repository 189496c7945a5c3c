import type { Entry } from "../../types.js";

/**
 * The versions `undo --last N` removes for one key: the N newest, the latest
 * first. Removing the newest version makes the previous one current again;
 * removing a delete marker on top brings the object back.
 */
export function undoPlan(versions: readonly Entry[], last: number): Entry[] {
  const sorted = [...versions].sort((a, b) => Number(b.isLatest === true) - Number(a.isLatest === true) || b.lastModified.getTime() - a.lastModified.getTime());
  return sorted.slice(0, last);
}

/** Groups listed versions by key, keeping the listing's key order. */
export function byKey(entries: readonly Entry[]): Map<string, Entry[]> {
  const groups = new Map<string, Entry[]>();
  for (const e of entries) {
    const group = groups.get(e.key);
    if (group) group.push(e);
    else groups.set(e.key, [e]);
  }
  return groups;
}
