import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { damaged } from "@mc/consensus";
import { apply } from "../../domain/apply.js";
import { createEmptyState, type KmsState } from "../../domain/state.js";
import { decodeCommand } from "./command-codec.js";
import { createLog, logFileName, openCommandLog, readLog, type CommandLog, type LogEntry, type ReadLog } from "./command-log.js";
import { writeFileAtomic } from "./files.js";
import { readSnapshotFile, sealSnapshot, snapshotFileName } from "./snapshot-file.js";

export interface LocalStore {
  readonly rootKey: Uint8Array;
  /** The state of the last snapshot (replay `entries` on top of it). */
  readonly snapshot: KmsState;
  /** Log entries after the snapshot, in order. */
  readonly entries: readonly LogEntry[];
  readonly log: CommandLog;
  /** What start-up repaired (a torn tail cut off), if anything. */
  readonly repaired: string | undefined;
  /**
   * Writes snapshot.bin of `state` as it is at the call (captured then;
   * encoded and written in slices afterwards) and resolves with its applied
   * index. The log is left alone: the caller restarts it after that index,
   * keeping what was appended meanwhile (local-node.ts).
   */
  writeSnapshot(state: KmsState): Promise<bigint>;
  close(): Promise<void>;
}

export interface LocalKeys {
  readonly rootKey: Uint8Array;
  readonly storeId: Uint8Array;
  /** First-format files may be present (read strictly, then rewritten). */
  readonly legacy: boolean;
}

async function readOrMissing(path: string, file: string, optional: boolean): Promise<Uint8Array | undefined> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    if (optional) return undefined;
    throw damaged(file, 0, "missing");
  }
}

/** snapshot.bin, read a chunk at a time; a first-format directory may lack one (the empty state). */
async function readSnapshotOrMissing(path: string, keys: LocalKeys): Promise<{ state: KmsState; legacy: boolean }> {
  try {
    return await readSnapshotFile(path, keys);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    if (keys.legacy) return { state: createEmptyState(), legacy: true };
    throw damaged(snapshotFileName, 0, "missing");
  }
}

export interface CheckedLocal {
  readonly snapshot: KmsState;
  readonly log: ReadLog;
  /** Some file is still in the first format. */
  readonly firstFormat: boolean;
}

/**
 * Reads and checks snapshot.bin and log.bin, changing nothing: both must
 * open, and the log must start no later than right after the snapshot (a
 * gap means lost entries). A first-format directory may lack a snapshot.
 */
export async function checkLocalFiles(dir: string, keys: LocalKeys): Promise<CheckedLocal> {
  const snap = await readSnapshotOrMissing(join(dir, snapshotFileName), keys);
  const logBuf = (await readOrMissing(join(dir, logFileName), logFileName, false)) ?? new Uint8Array(0);
  const log = readLog(logBuf, keys);
  const applied = snap.state.appliedIndex;
  const first = log.legacy ? log.entries[0]?.index : log.base;
  if (first !== undefined && first > applied + 1n) {
    throw damaged(logFileName, log.legacy ? 0 : 32, `the log starts at entry ${first} but the snapshot ends at entry ${applied}`);
  }
  return { snapshot: snap.state, log, firstFormat: snap.legacy || log.legacy };
}

/**
 * Opens the single-node store of a directory that `checkLocalFiles`
 * accepted: cuts a torn tail, or rewrites a first-format directory as one
 * current snapshot and an empty log (`onRewritten` then finishes the
 * directory's migration).
 */
export async function openLocalStore(dir: string, keys: LocalKeys, checked: CheckedLocal, onRewritten: () => Promise<void>): Promise<LocalStore> {
  const { rootKey, storeId } = keys;
  let snapshot = checked.snapshot;
  let read = checked.log;
  const applied = snapshot.appliedIndex;
  // Streamed, so synced every MiB as it is written (writeFileAtomic): a log fsync never waits for more than a MiB of snapshot pages.
  const writeSnapshot = (state: KmsState): Promise<void> => writeFileAtomic(join(dir, snapshotFileName), sealSnapshot(rootKey, storeId, state), 0o600);
  if (keys.legacy) {
    for (const e of read.entries) if (e.index > applied) apply(snapshot, decodeCommand(e.data), e.index);
    await writeSnapshot(snapshot);
    await createLog(dir, rootKey, storeId, snapshot.appliedIndex + 1n);
    await onRewritten();
    const rewritten = await checkLocalFiles(dir, { ...keys, legacy: false });
    read = rewritten.log;
    snapshot = rewritten.snapshot;
  }
  const torn = read.torn;
  const log = await openCommandLog(dir, rootKey, storeId, read);
  return {
    rootKey,
    snapshot,
    entries: read.entries.filter((e) => e.index > snapshot.appliedIndex),
    log,
    repaired: torn ? `torn tail of ${logFileName} cut at byte ${torn.at} (${torn.bytes} bytes: ${torn.why})` : undefined,
    async writeSnapshot(state) {
      const index = state.appliedIndex;
      await writeSnapshot(state);
      return index;
    },
    close: () => log.close(),
  };
}
