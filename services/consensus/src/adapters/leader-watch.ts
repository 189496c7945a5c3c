/**
 * Who leads, as this node last saw it, and callbacks for "the leader is no
 * longer X": how a write waiting on a lost leader learns at once that another
 * one exists. Checked once per Ready (O(1) while nothing changes), instead of
 * each waiting write polling the node's status.
 */
export interface LeaderWatch {
  /** Called after each step with the leader now known ("" for none). */
  observe(leader: string): void;
  /** Runs `onMoved` once another leader than `leader` is known; returns a cancel. */
  watch(leader: string, onMoved: () => void): () => void;
}

export function createLeaderWatch(): LeaderWatch {
  let current = "";
  const watchers = new Map<string, Set<() => void>>();

  function fire(except: string): void {
    for (const [leader, set] of watchers) {
      if (leader === except) continue;
      watchers.delete(leader);
      for (const cb of set) cb();
    }
  }

  return {
    observe(leader) {
      if (leader === current) return;
      current = leader;
      // No leader known yet is not news: the old one may still commit the write.
      if (leader !== "") fire(leader);
    },
    watch(leader, onMoved) {
      if (current !== "" && current !== leader) {
        queueMicrotask(onMoved);
        return () => undefined;
      }
      let set = watchers.get(leader);
      if (!set) {
        set = new Set();
        watchers.set(leader, set);
      }
      set.add(onMoved);
      const mine = set;
      return () => {
        mine.delete(onMoved);
        if (mine.size === 0 && watchers.get(leader) === mine) watchers.delete(leader);
      };
    },
  };
}
