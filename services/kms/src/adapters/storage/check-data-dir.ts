import { join } from "node:path";
import { checkLogFolder, damageOf, type Damage } from "@mc/consensus";
import { HsmMismatchError, type Hsm } from "../hsm/hsm.js";
import { listDataDir, raftFolderName, stagedName } from "./data-dir.js";
import { checkLocalFiles } from "./local-store.js";
import { inspectDataDir } from "./open-data-dir.js";
import type { StorageMode } from "./root-key-file.js";

export interface DataDirReport {
  /** What a start would do: create it, open it (repairing at most a torn tail), or refuse. */
  readonly verdict: "new" | "starts" | "refuses";
  /** Lines for the operator, in order. */
  readonly lines: string[];
  readonly damage: Damage | undefined;
}

/**
 * Runs every check `kms server` runs on the data directory, and writes
 * nothing: the basis of `kms recover`'s report.
 */
export async function checkDataDir(dir: string, hsm: Hsm, mode: StorageMode): Promise<DataDirReport> {
  const names = await listDataDir(dir, false);
  if (names?.includes(stagedName)) return { verdict: "starts", lines: [`${dir} holds an interrupted first start (${stagedName}): the next start finishes it`], damage: undefined };
  if (!names) return { verdict: "new", lines: [`${dir} is absent or empty: the next start creates it (a first start)`], damage: undefined };
  const lines: string[] = [];
  try {
    const inspected = await inspectDataDir(dir, names, hsm, mode);
    lines.push(`root-key.json  ok (format ${inspected.rf.version}${inspected.legacy ? ", first-format files are rewritten at the next start" : ""})`);
    if (inspected.leftovers.length > 0) lines.push(`leftovers      ${inspected.leftovers.join(", ")} (interrupted writes, removed at the next start)`);
    if (mode === "single") {
      const c = await checkLocalFiles(dir, inspected);
      lines.push(`snapshot.bin   ok: the state up to entry ${c.snapshot.appliedIndex}`);
      const first = c.log.entries[0]?.index;
      const span = first === undefined ? "no entries" : `entries ${first}..${c.log.entries.at(-1)?.index} (${c.log.entries.length})`;
      lines.push(`log.bin        ok: ${span}${c.log.torn ? `; a torn tail of ${c.log.torn.bytes} bytes after byte ${c.log.torn.at} is cut at the next start (${c.log.torn.why})` : ""}`);
    } else {
      const r = await checkLogFolder({ dir: join(dir, raftFolderName), rootKey: inspected.rootKey, storeId: inspected.storeId, legacy: inspected.legacy, label: `${raftFolderName}/` });
      lines.push(`raft/          ok: ${r.segments.length} segments, ${r.entries} entries after ${r.snapshotIndex === undefined ? "the start" : `the snapshot at entry ${r.snapshotIndex}`}`);
      if (r.torn) lines.push(`               a torn tail is cut at the next start: ${r.torn}`);
    }
    return { verdict: "starts", lines, damage: undefined };
  } catch (err) {
    const d = damageOf(err);
    if (d) {
      lines.push(`kms: data directory is damaged: ${d.file} at offset ${d.offset}: ${d.what}`);
      return { verdict: "refuses", lines, damage: d };
    }
    if (err instanceof HsmMismatchError) return { verdict: "refuses", lines: ["kms: HSM key does not match the data directory"], damage: undefined };
    throw err;
  }
}
