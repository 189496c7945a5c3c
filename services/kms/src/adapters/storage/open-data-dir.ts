import { randomBytes } from "node:crypto";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { damaged, syncDir } from "@mc/consensus";
import type { Hsm } from "../hsm/hsm.js";
import { logFileName } from "./command-log.js";
import { createDataDir, type CreateOptions } from "./create-data-dir.js";
import { checkNames, checkRootKeyBelongs, listDataDir, raftFolderName, removeLeftovers } from "./data-dir.js";
import { writeFileAtomic } from "./files.js";
import { checkLocalFiles, openLocalStore, type LocalStore } from "./local-store.js";
import { snapshotFileName } from "./snapshot-file.js";
import { encodeRootKeyFile, parseRootKeyFile, rootKeyFileName, type RootKeyFile, type StorageMode } from "./root-key-file.js";

/** What a cluster member's Raft log store needs from its data directory. */
export interface ClusterStorage {
  readonly storeId: Uint8Array;
  /** First-format Raft files may be present (read strictly, then rewritten). */
  readonly legacy: boolean;
  /** Run by the log store once its folder checked out, before it writes anything. */
  onValidated(): Promise<void>;
  /** Run once the node started: finishes a first-format directory's rewrite. */
  afterStart(): Promise<void>;
}

export interface OpenedDataDir {
  readonly rootKey: Uint8Array;
  /** This start created the directory (it was absent or empty). */
  readonly firstStart: boolean;
  readonly local: LocalStore | undefined;
  readonly cluster: ClusterStorage | undefined;
}

async function readRootKeyFile(dir: string): Promise<RootKeyFile> {
  try {
    return parseRootKeyFile(new Uint8Array(await readFile(join(dir, rootKeyFileName))));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") throw damaged(rootKeyFileName, 0, "missing");
    throw err;
  }
}

const modeName = (m: StorageMode): string => (m === "single" ? "a single node" : "a cluster member");

export interface Inspected {
  readonly rf: RootKeyFile;
  readonly rootKey: Uint8Array;
  readonly storeId: Uint8Array;
  /** First-format files may be present. */
  readonly legacy: boolean;
  readonly leftovers: string[];
}

/**
 * Checks an existing directory's root key file and names, read-only: the
 * HSM must unwrap the root key, the mode must match, no file may be unknown
 * or missing, and the root key file must belong with the other files.
 */
export async function inspectDataDir(dir: string, names: readonly string[], hsm: Hsm, mode: StorageMode): Promise<Inspected> {
  if (!names.includes(rootKeyFileName)) throw damaged(rootKeyFileName, 0, "missing");
  const rf = await readRootKeyFile(dir);
  if (rf.mode && rf.mode !== mode) throw new Error(`the data directory belongs to ${modeName(rf.mode)}, but the configuration is for ${modeName(mode)}`);
  const rootKey = await hsm.unwrap(rf.wrapped);
  const legacy = rf.version === 1 || rf.migrating;
  const storeId = rf.storeId ?? new Uint8Array(randomBytes(16));
  const leftovers = checkNames(names, mode, legacy);
  if (rf.storeId) {
    const raft = mode === "cluster" ? (await readdir(join(dir, raftFolderName)).catch(() => [])).map((n) => join(raftFolderName, n)) : [];
    await checkRootKeyBelongs(dir, rf.storeId, mode === "single" ? [snapshotFileName, logFileName] : raft);
  }
  if (mode === "cluster" && legacy && names.includes(logFileName) && (await stat(join(dir, logFileName))).size > 0) {
    throw damaged(logFileName, 0, "a cluster member's first-format log.bin must be empty");
  }
  return { rf, rootKey, storeId, legacy, leftovers };
}

/**
 * Opens the data directory: a new one (absent or empty) is created whole;
 * an existing one is checked completely (root key file, names, then the
 * files themselves) before anything in it is written, so a refusal leaves
 * every byte as it was. A wrong HSM key fails with HsmMismatchError, damage
 * with the damage error (file, offset, what).
 */
export async function openDataDir(dir: string, hsm: Hsm, o: Omit<CreateOptions, "hsm">): Promise<OpenedDataDir> {
  let names = await listDataDir(dir);
  let firstStart = false;
  if (!names) {
    await createDataDir(dir, { ...o, hsm });
    firstStart = true;
    names = (await listDataDir(dir)) ?? [];
  }
  const { rf, rootKey, storeId, legacy, leftovers } = await inspectDataDir(dir, names, hsm, o.mode);
  const writeRootKey = (migrating: boolean): Promise<void> =>
    writeFileAtomic(join(dir, rootKeyFileName), encodeRootKeyFile({ mode: o.mode, hsm: rf.hsm, wrapped: rf.wrapped, storeId, migrating }));
  const beginRewrite = async (): Promise<void> => {
    if (rf.version === 1) await writeRootKey(true);
  };
  if (o.mode === "single") {
    const keys = { rootKey, storeId, legacy };
    const checked = await checkLocalFiles(dir, keys);
    await removeLeftovers(dir, leftovers);
    if (legacy) await beginRewrite();
    const local = await openLocalStore(dir, keys, checked, () => writeRootKey(false));
    return { rootKey, firstStart, local, cluster: undefined };
  }
  const cluster: ClusterStorage = {
    storeId,
    legacy,
    async onValidated() {
      await removeLeftovers(dir, leftovers);
      if (legacy) await beginRewrite();
    },
    async afterStart() {
      if (!legacy) return;
      await rm(join(dir, logFileName), { force: true });
      await syncDir(dir);
      await writeRootKey(false);
    },
  };
  return { rootKey, firstStart, local: undefined, cluster };
}
