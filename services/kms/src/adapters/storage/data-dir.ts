import { open, readdir, rename, rm, rmdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { damaged, hasBlobMagic, isRecordFile, syncDir } from "@mc/consensus";
import { logFileName } from "./command-log.js";
import { rootKeyFileName, type StorageMode } from "./root-key-file.js";
import { snapshotFileName } from "./snapshot-file.js";

export const raftFolderName = "raft";

/** A finished creation waiting to be moved into place (its files are complete and fsynced). */
export const stagedName = ".created";
const attempt = /^\.tmp-creating-[0-9a-f]{12}$/;

/** True for a creation attempt that never committed (nothing of it counts). */
export const isAttempt = (name: string): boolean => attempt.test(name);

/**
 * Moves a committed creation's files from `.created` into the directory and
 * removes the folder. Run whenever `.created` exists: a crash may have
 * stopped it half-way, and the files left in it are complete.
 */
export async function finishCreation(dir: string): Promise<void> {
  const staged = join(dir, stagedName);
  for (const name of await readdir(staged)) await rename(join(staged, name), join(dir, name));
  await syncDir(dir);
  await rmdir(staged);
  await syncDir(dir);
}

/** Leftovers of an interrupted atomic write (temp + rename): never part of the state. */
const leftover = /^\.tmp-(root-key\.json|snapshot\.bin|log\.bin)-[0-9a-f]{12}$/;

/**
 * What a data directory holds before anything is opened, or undefined when
 * it is new: absent, empty, or holding only a creation attempt that never
 * committed. "First start" is never inferred from a missing or damaged file.
 * A committed creation interrupted half-way (`.created`) is finished first.
 */
export async function listDataDir(dir: string, finish = true): Promise<string[] | undefined> {
  try {
    const s = await stat(dir);
    if (!s.isDirectory()) throw new Error(`${dir} is not a directory`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  let names = await readdir(dir);
  if (finish && names.includes(stagedName)) {
    await finishCreation(dir);
    names = await readdir(dir);
  }
  return names.filter((n) => !isAttempt(n)).length === 0 ? undefined : names.sort();
}

/**
 * Checks the names in an existing directory against what its mode keeps;
 * returns the leftovers to remove once everything else has checked out.
 * `legacy` admits the files of the first format (a cluster member's empty
 * log.bin, a single node without a snapshot yet).
 */
export function checkNames(names: readonly string[], mode: StorageMode, legacy: boolean): string[] {
  const known = mode === "single" ? [rootKeyFileName, snapshotFileName, logFileName] : [rootKeyFileName, raftFolderName, ...(legacy ? [logFileName] : [])];
  const leftovers: string[] = [];
  for (const name of names) {
    if (leftover.test(name) || isAttempt(name)) leftovers.push(name);
    else if (!known.includes(name)) throw damaged(name, 0, "unknown file in the data directory");
  }
  const required = mode === "single" ? [rootKeyFileName, logFileName, ...(legacy ? [] : [snapshotFileName])] : [rootKeyFileName, raftFolderName];
  for (const name of required) if (!names.includes(name)) throw damaged(name, 0, "missing");
  return leftovers;
}

export async function removeLeftovers(dir: string, leftovers: readonly string[]): Promise<void> {
  for (const name of leftovers) await rm(join(dir, name), { recursive: true, force: true });
}

async function storeIdOf(path: string): Promise<string | undefined> {
  let fh;
  try {
    fh = await open(path, "r");
  } catch {
    return undefined;
  }
  try {
    const head = new Uint8Array(32);
    const { bytesRead } = await fh.read(head, 0, 32, 0);
    if (bytesRead < 32 || (!isRecordFile(head) && !hasBlobMagic(head))) return undefined;
    return Buffer.from(head.subarray(16, 32)).toString("hex");
  } finally {
    await fh.close();
  }
}

/**
 * A root-key.json copied from another directory still opens with the same
 * HSM; every other file then names another store. When two or more files
 * all agree with each other, the root key file is the stranger: say so, rather
 * than blame the first file that disagrees with it.
 */
export async function checkRootKeyBelongs(dir: string, storeId: Uint8Array, files: readonly string[]): Promise<void> {
  const ids = (await Promise.all(files.map((f) => storeIdOf(join(dir, f))))).filter((id): id is string => id !== undefined);
  const own = Buffer.from(storeId).toString("hex");
  if (ids.length > 1 && ids.every((id) => id === ids[0]) && ids[0] !== own) {
    throw damaged("root-key.json", 0, "belongs to another data directory (every other file names another store)");
  }
}
