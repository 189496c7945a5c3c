import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { damaged } from "./file-log-store-damage.js";
import { hasMagic, type Mark } from "./file-log-store-format.js";
import { readRecordFile } from "./file-log-store-reader.js";
import { readRecordV1, recordOf, type LogRecord } from "./log-records.js";
import { readSnapshotFile, snapshotFileName, type SnapshotRead } from "./snapshot-file.js";
import { isFileSnapshotData } from "./snapshot-file-data.js";

export const segmentTag = "raft-seg";
export const segmentName = (n: number): string => `log-${String(n).padStart(12, "0")}.seg`;
const segmentPattern = /^log-(\d{12})\.seg$/;
const tempPattern = /^(\.tmp-.*|snapshot\.tmp)$/;

export interface ScanOptions {
  readonly dir: string;
  readonly key: Uint8Array;
  readonly storeId: Uint8Array;
  readonly legacy: boolean;
  readonly label: string;
}

export interface PlacedRecord {
  readonly record: LogRecord;
  readonly offset: number;
}

export interface ScannedSegment {
  readonly name: string;
  readonly number: number;
  readonly size: number;
  readonly records: PlacedRecord[];
  /** Current format: where records end, the mark and any torn tail. Undefined for a first-format file. */
  readonly v2: { readonly end: number; readonly mark: Mark; readonly torn: { bytes: number; why: string } | undefined } | undefined;
}

/** Closes the snapshot file a scan holds open (a chunked snapshot's data reads from it). */
export function closeScan(scan: Pick<Scan, "snapshot">): void {
  const data = scan.snapshot?.snapshot.data;
  if (data && isFileSnapshotData(data)) data.close();
}

export interface Scan {
  /** False when the folder is absent or holds nothing at all. */
  readonly exists: boolean;
  readonly segments: ScannedSegment[];
  readonly snapshot: SnapshotRead | undefined;
  /** Leftover temporary files of interrupted atomic writes (never part of the state). */
  readonly temps: string[];
}

function readV1(buf: Uint8Array, file: string, key: Uint8Array): PlacedRecord[] {
  const out: PlacedRecord[] = [];
  let offset = 0;
  while (offset < buf.length) {
    const r = readRecordV1(key, buf, offset);
    if (!r.ok) throw damaged(file, offset, `first-format record ${r.problem === "truncated" ? "cut short" : r.problem === "checksum" ? "checksum mismatch" : "does not open under the root key"}`);
    out.push({ record: r.record, offset });
    offset += r.size;
  }
  return out;
}

async function scanSegment(o: ScanOptions, name: string, number: number): Promise<ScannedSegment> {
  const file = `${o.label}${name}`;
  const buf = await readFile(join(o.dir, name));
  if (!hasMagic(buf) && o.legacy) return { name, number, size: buf.length, records: readV1(buf, file, o.key), v2: undefined };
  const c = readRecordFile(buf, { file, tag: segmentTag, storeId: o.storeId, base: number, key: o.key });
  const records = c.records.map((r) => {
    try {
      return { record: recordOf(r.kind, r.plain), offset: r.offset };
    } catch {
      throw damaged(file, r.offset, "record content is unreadable");
    }
  });
  return { name, number, size: buf.length, records, v2: { end: c.end, mark: c.mark, torn: c.torn } };
}

/**
 * Reads the whole log folder without changing it: names (segments must be
 * consecutive; an unknown file is damage), the snapshot and every segment.
 * A torn tail is allowed only in the last segment.
 */
export async function scanLogFolder(o: ScanOptions): Promise<Scan> {
  let names: string[];
  try {
    names = (await readdir(o.dir)).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { exists: false, segments: [], snapshot: undefined, temps: [] };
    throw err;
  }
  const temps = names.filter((n) => tempPattern.test(n));
  const numbered: { name: string; number: number }[] = [];
  for (const name of names) {
    const m = segmentPattern.exec(name);
    if (m) numbered.push({ name, number: Number(m[1]) });
    else if (name !== snapshotFileName && !tempPattern.test(name)) throw damaged(`${o.label}${name}`, 0, "unknown file in the log folder");
  }
  const snapshot = await readSnapshotFile(o.dir, o.key, o);
  if (numbered.length === 0) {
    closeScan({ snapshot });
    if (names.length === temps.length) return { exists: false, segments: [], snapshot: undefined, temps };
    throw damaged(o.label, 0, "no log segment");
  }
  const segments: ScannedSegment[] = [];
  try {
    for (const [i, { name, number }] of numbered.entries()) {
      const prev = numbered[i - 1];
      if (prev && number !== prev.number + 1) throw damaged(`${o.label}${segmentName(prev.number + 1)}`, 0, "missing (later segments exist)");
      const seg = await scanSegment(o, name, number);
      const last = i === numbered.length - 1;
      if (seg.v2?.torn && !last) throw damaged(`${o.label}${name}`, seg.v2.end, `${seg.v2.torn.why} in a segment that is not the last`);
      if (seg.v2?.mark.closed && last) throw damaged(`${o.label}${name}`, 64, `closed, but ${o.label}${segmentName(number + 1)} is missing`);
      segments.push(seg);
    }
  } catch (err) {
    closeScan({ snapshot });
    throw err;
  }
  return { exists: true, segments, snapshot, temps };
}
