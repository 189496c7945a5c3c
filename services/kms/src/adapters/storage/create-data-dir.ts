import { randomBytes } from "node:crypto";
import { mkdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { createFileLogStore, syncDir } from "@mc/consensus";
import { apply } from "../../domain/apply.js";
import { createEmptyState } from "../../domain/state.js";
import type { Hsm } from "../hsm/hsm.js";
import { createLog } from "./command-log.js";
import { raftFolderName } from "./data-dir.js";
import { writeFileAtomic } from "./files.js";
import { encodeRootKeyFile, rootKeyFileName, type StorageMode } from "./root-key-file.js";
import { encodeSnapshot, snapshotFileName } from "./snapshot-file.js";

export interface CreateOptions {
  readonly hsm: Hsm;
  readonly mode: StorageMode;
  /** Single node: the configured enclaves, created in the first snapshot. */
  readonly enclaves: readonly string[];
  readonly now: () => string;
}

/**
 * First start: builds the whole directory beside its final place and renames
 * it there in one step (rename(2) replaces an absent or empty directory), so
 * a crash leaves either nothing, and the next start is a first start again,
 * or a complete directory. Never a half-made one that could pass for new.
 */
export async function createDataDir(dir: string, o: CreateOptions): Promise<{ rootKey: Uint8Array; storeId: Uint8Array }> {
  // A cluster's nodes share one root key (derived from the HSM); a single node draws its own.
  const rootKey = o.mode === "cluster" ? await o.hsm.clusterRootKey() : new Uint8Array(randomBytes(32));
  const wrapped = await o.hsm.wrap(rootKey);
  const storeId = new Uint8Array(randomBytes(16));
  const parent = dirname(dir);
  await mkdir(parent, { recursive: true });
  const temp = join(parent, `.tmp-${basename(dir)}-${randomBytes(6).toString("hex")}`);
  await mkdir(temp, { mode: 0o700 });
  try {
    await writeFileAtomic(join(temp, rootKeyFileName), encodeRootKeyFile({ mode: o.mode, hsm: o.hsm.kind, wrapped, storeId }));
    if (o.mode === "single") {
      const state = createEmptyState();
      for (const name of o.enclaves) apply(state, { clientId: "", sequence: 0n, issuedAt: o.now(), issuedBy: "", payload: { kind: "createEnclave", name } });
      await writeFileAtomic(join(temp, snapshotFileName), encodeSnapshot(rootKey, storeId, state));
      await createLog(temp, rootKey, storeId, state.appliedIndex + 1n);
    } else {
      const store = createFileLogStore({ dir: join(temp, raftFolderName), rootKey, storeId });
      await store.load();
      await store.close();
      await syncDir(join(temp, raftFolderName));
    }
    await syncDir(temp);
    await rename(temp, dir);
  } catch (err) {
    await rm(temp, { recursive: true, force: true });
    throw err;
  }
  await syncDir(parent);
  return { rootKey, storeId };
}
