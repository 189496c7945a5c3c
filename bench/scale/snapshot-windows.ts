// When each node was taking a snapshot, from its one log line per snapshot
// ("snapshot at entry N written in T ms"): the line's arrival, read every
// few milliseconds, ends a window of T ms.
import type { Member } from "../../tests/kms/cluster-harness.js";

export interface Window {
  readonly start: number;
  readonly end: number;
  /** Index of the member in the list given. */
  readonly member: number;
}

export function snapshotWindows(members: readonly Member[]): { seen(): readonly Window[]; stop(): Window[] } {
  const read = members.map((m) => m.proc?.output().length ?? 0);
  const windows: Window[] = [];
  const timer = setInterval(() => {
    const now = performance.now();
    members.forEach((m, i) => {
      const text = m.proc?.output() ?? "";
      // Up to the last whole line: the rest is read with the next poll.
      const upTo = text.lastIndexOf("\n") + 1;
      const fresh = text.slice(read[i] ?? 0, Math.max(upTo, read[i] ?? 0));
      read[i] = Math.max(upTo, read[i] ?? 0);
      for (const match of fresh.matchAll(/snapshot at entry \d+ written in (\d+) ms/g)) windows.push({ start: now - Number(match[1]), end: now, member: i });
    });
  }, 5);
  return {
    seen: () => windows,
    stop() {
      clearInterval(timer);
      return windows;
    },
  };
}
