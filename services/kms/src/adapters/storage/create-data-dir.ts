import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { createFileLogStore, syncDir } from "@mc/consensus";
import { apply } from "../../domain/apply.js";
import { createEmptyState } from "../../domain/state.js";
import type { Hsm } from "../hsm/hsm.js";
import { createLog } from "./command-log.js";
import { finishCreation, isAttempt, raftFolderName, stagedName } from "./data-dir.js";
import { writeFileAtomic } from "./files.js";
import { encodeRootKeyFile, rootKeyFileName, type StorageMode } from "./root-key-file.js";
import { sealSnapshot, snapshotFileName } from "./snapshot-file.js";

export interface CreateOptions {
  readonly hsm: Hsm;
  readonly mode: StorageMode;
  /** Single node: the configured enclaves, created in the first snapshot. */
  readonly enclaves: readonly string[];
  readonly now: () => string;
}

/**
 * First start: builds every file in a temporary folder inside the directory
 * (which may be a mount point, so the directory itself is never replaced),
 * commits by renaming that folder to `.created`, then moves the files into
 * place. A crash before the commit leaves only the temporary folder, which
 * never counts (the next start begins again); after it, the next start
 * finishes the move. Never a half-made directory that could pass for new.
 */
export async function createDataDir(dir: string, o: CreateOptions): Promise<{ rootKey: Uint8Array; storeId: Uint8Array }> {
  // A cluster's nodes share one root key (derived from the HSM); a single node draws its own.
  const rootKey = o.mode === "cluster" ? await o.hsm.clusterRootKey() : new Uint8Array(randomBytes(32));
  const wrapped = await o.hsm.wrap(rootKey);
  const storeId = new Uint8Array(randomBytes(16));
  const made = await mkdir(dir, { recursive: true, mode: 0o700 });
  if (made !== undefined) await syncDir(dirname(dir));
  for (const name of (await readdir(dir)).filter(isAttempt)) await rm(join(dir, name), { recursive: true, force: true });
  const temp = join(dir, `.tmp-creating-${randomBytes(6).toString("hex")}`);
  await mkdir(temp, { mode: 0o700 });
  await writeFileAtomic(join(temp, rootKeyFileName), encodeRootKeyFile({ mode: o.mode, hsm: o.hsm.kind, wrapped, storeId }));
  if (o.mode === "single") {
    const state = createEmptyState();
    for (const name of o.enclaves) apply(state, { requestId: "", issuedAt: o.now(), issuedBy: "", payload: { kind: "createEnclave", name } });
    await writeFileAtomic(join(temp, snapshotFileName), sealSnapshot(rootKey, storeId, state));
    await createLog(temp, rootKey, storeId, state.appliedIndex + 1n);
  } else {
    const store = createFileLogStore({ dir: join(temp, raftFolderName), rootKey, storeId });
    await store.load();
    await store.close();
    await syncDir(join(temp, raftFolderName));
  }
  await syncDir(temp);
  await rename(temp, join(dir, stagedName));
  await syncDir(dir);
  await finishCreation(dir);
  return { rootKey, storeId };
}
