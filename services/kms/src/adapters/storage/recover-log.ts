import { mkdir, open as openFile, readdir, readFile, rename, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { cutRecordFile, isRecordFile, recordsStart, syncDir } from "@mc/consensus";
import { logFileName, readLog, type ReadLog } from "./command-log.js";
import { writeFileAtomic } from "./files.js";
import type { LocalKeys } from "./local-store.js";

export interface CutPoint {
  readonly at: number;
  /** Entries kept (those before the cut). */
  readonly kept: number;
  readonly bytesCut: number;
}

/** The log as it would be when cut at `at`, or undefined when `at` is not a point where every record before it is whole and authentic. */
function logCutAt(buf: Uint8Array, at: number, keys: LocalKeys): ReadLog | undefined {
  if (at > buf.length) return undefined;
  const v2 = isRecordFile(buf);
  if (v2 && at < recordsStart) return undefined;
  try {
    const log = readLog(v2 ? cutRecordFile(buf, at, keys.rootKey) : buf.subarray(0, at), { ...keys, legacy: !v2 });
    return log.torn ? undefined : log;
  } catch {
    return undefined;
  }
}

/** Record boundaries as the length fields lay them out (unverified: each candidate is checked by cutting there). */
function boundaries(buf: Uint8Array): number[] {
  const v2 = isRecordFile(buf);
  const header = v2 ? 24 : 4;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const out: number[] = [];
  let at = v2 ? recordsStart : 0;
  while (at <= buf.length) {
    out.push(at);
    if (at + 4 > buf.length) break;
    at += header + view.getUint32(at);
  }
  return out;
}

/** The latest point at or before `limit` where the log can be cut with every record before it intact. */
export function suggestCut(buf: Uint8Array, limit: number, keys: LocalKeys): CutPoint | undefined {
  for (const at of boundaries(buf).filter((b) => b <= limit).reverse()) {
    const log = logCutAt(buf, at, keys);
    if (log) return { at, kept: log.entries.length, bytesCut: buf.length - at };
  }
  return undefined;
}

async function writeDurably(path: string, data: Uint8Array): Promise<void> {
  const fh = await openFile(path, "wx", 0o600);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Cuts log.bin at `at` (a point where every record before it is intact),
 * after saving the original file and the bytes cut off, byte for byte, in
 * `backupDir` (outside the data directory; created, must not hold files).
 */
export async function cutLog(dir: string, at: number, backupDir: string, keys: LocalKeys): Promise<CutPoint> {
  const buf = new Uint8Array(await readFile(join(dir, logFileName)));
  const log = logCutAt(buf, at, keys);
  if (!log) throw new Error(`byte ${at} of ${logFileName} is not a point where every record before it is intact`);
  await mkdir(backupDir, { recursive: true, mode: 0o700 });
  if ((await readdir(backupDir)).length > 0) throw new Error(`the backup folder ${backupDir} is not empty`);
  await writeDurably(join(backupDir, logFileName), buf);
  await writeDurably(join(backupDir, `${logFileName}.from-byte-${at}`), buf.subarray(at));
  await syncDir(backupDir);
  await writeFileAtomic(join(dir, logFileName), isRecordFile(buf) ? cutRecordFile(buf, at, keys.rootKey) : buf.slice(0, at));
  return { at, kept: log.entries.length, bytesCut: buf.length - at };
}

/** Moves the whole data directory to `to` (same filesystem; `to` must not exist), so the node starts empty. */
export async function moveAside(dir: string, to: string): Promise<void> {
  const exists = await stat(to).then(() => true, () => false);
  if (exists) throw new Error(`${to} already exists`);
  await rename(dir, to);
  await syncDir(dirname(dir));
  if (dirname(to) !== dirname(dir)) await syncDir(dirname(to));
}
