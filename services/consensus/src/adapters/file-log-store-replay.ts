import type { Entry, HardState, HeldSnapshot } from "../domain/types.js";
import { damaged } from "./file-log-store-damage.js";
import { segmentName, type Scan } from "./file-log-store-scan.js";
import { snapshotFileName } from "./snapshot-file.js";

export interface Replayed {
  readonly hardState: HardState;
  readonly snapshot: HeldSnapshot | undefined;
  readonly entries: Entry[];
  /** Highest entry index per segment (compaction drops a segment once a snapshot covers it). */
  readonly maxIndex: number[];
}

/**
 * Rebuilds hard state and entries from the scanned segments, in order, and
 * checks that log and snapshot fit together: no gap between entries, no
 * snapshot missing or older than one the log records, none missing when
 * older segments were compacted away.
 */
export function replay(scan: Scan, label: string): Replayed {
  let hard: HardState = { term: 0, votedFor: "", commit: 0 };
  let base = 0;
  let baseTerm: number | undefined = 0;
  let entries: Entry[] = [];
  let recorded: { index: number; term: number; file: string; offset: number } | undefined;
  const maxIndex: number[] = [];
  const termAt = (i: number): number | undefined => (i === base ? baseTerm : entries[i - base - 1]?.term);
  for (const seg of scan.segments) {
    const file = `${label}${seg.name}`;
    let max = 0;
    for (const { record: rec, offset } of seg.records) {
      if (rec.kind === "hard") hard = rec.hardState;
      else if (rec.kind === "snapshot") {
        // A node's own snapshot is encoded while writes go on, so its record
        // follows newer entries. When older segments were compacted, those
        // entries may start above it: a kept suffix then keeps the base it
        // has (moving the base down misplaced every entry after it, and a
        // whole log read as one with a gap).
        if (!rec.keep || rec.index >= base) {
          entries = rec.keep ? entries.filter((e) => e.index > rec.index) : [];
          base = rec.index;
          baseTerm = rec.term;
        }
        recorded = { index: rec.index, term: rec.term, file, offset };
      } else {
        const e = rec.entry;
        max = Math.max(max, e.index);
        if (entries.length === 0 && e.index > base + 1) {
          // Older segments were compacted away: this segment starts mid-log.
          base = e.index - 1;
          baseTerm = undefined;
        }
        if (e.index > base) {
          if (e.index - base - 1 > entries.length) throw damaged(file, offset, `gap before entry ${e.index}`);
          entries.length = e.index - base - 1;
          entries.push(e);
        }
      }
    }
    maxIndex.push(max);
  }
  const snapFile = `${label}${snapshotFileName}`;
  const snapshot = scan.snapshot?.snapshot;
  const compacted = (scan.segments[0]?.number ?? 1) > 1;
  if (!snapshot) {
    if (recorded) throw damaged(snapFile, 0, `missing (the log records a snapshot at entry ${recorded.index})`);
    if (compacted || base > 0) throw damaged(snapFile, 0, "missing (older log segments were compacted)");
  } else {
    const s = snapshot.meta;
    if (recorded && (s.index < recorded.index || (s.index === recorded.index && s.term !== recorded.term))) {
      throw damaged(snapFile, 32, `holds entry ${s.index} but the log records a snapshot at entry ${recorded.index}`);
    }
    if (s.index < base) {
      // Compacted segments go only once a snapshot covers them: with the
      // first one kept gone, the log has a hole before it.
      const first = scan.segments[0]?.number ?? 1;
      const missing = first > 1 ? `${label}${segmentName(first - 1)}` : snapFile;
      throw damaged(missing, first > 1 ? 0 : 32, `${first > 1 ? "missing: " : ""}the snapshot holds entries up to ${s.index} but the log continues only after entry ${base}`);
    }
    if (s.index > base || baseTerm !== undefined) entries = termAt(s.index) === s.term ? entries.slice(s.index - base) : [];
  }
  return { hardState: hard, snapshot, entries, maxIndex };
}
