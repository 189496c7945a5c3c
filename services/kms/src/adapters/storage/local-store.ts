import { mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { open, seal } from "@mc/wasm";
import type { Hsm } from "../hsm/hsm.js";
import { createEmptyState, type KmsState } from "../../domain/state.js";
import { openCommandLog, readLog, type CommandLog, type LogEntry } from "./command-log.js";
import { decodeState, encodeState } from "./state-codec.js";
import { writeFileAtomic } from "./files.js";

const snapshotAd = new TextEncoder().encode("kms:snapshot:v1");

export interface LocalStore {
  readonly rootKey: Uint8Array;
  /** The state of the last snapshot (replay `entries` on top of it). */
  readonly snapshot: KmsState;
  /** Log entries after the snapshot, in order. */
  readonly entries: readonly LogEntry[];
  readonly fresh: boolean;
  readonly log: CommandLog;
  writeSnapshot(state: KmsState): Promise<void>;
  close(): Promise<void>;
}

const exists = (p: string) => stat(p).then(() => true, () => false);

/** True when the directory holds no KMS state (missing or without a root key file). */
export function isFreshDataDir(dir: string): Promise<boolean> {
  return exists(join(dir, "root-key.json")).then((e) => !e);
}

/**
 * Opens (or on first start creates) the data directory: the root encryption
 * key wrapped by the HSM, the sealed snapshot and the sealed command log.
 * Unwrapping comes first, so a wrong HSM key fails before anything is written.
 */
export async function openLocalStore(dir: string, hsm: Hsm, options: { clusterKey?: boolean } = {}): Promise<LocalStore> {
  const rootFile = join(dir, "root-key.json");
  const fresh = await isFreshDataDir(dir);
  let rootKey: Uint8Array;
  if (fresh) {
    // A cluster's nodes share one root key (derived from the HSM); a single node draws its own.
    rootKey = options.clusterKey ? await hsm.clusterRootKey() : new Uint8Array(randomBytes(32));
    const wrapped = await hsm.wrap(rootKey);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const body = JSON.stringify({ version: 1, hsm: hsm.kind, wrapped: Buffer.from(wrapped).toString("base64") });
    await writeFileAtomic(rootFile, new TextEncoder().encode(`${body}\n`));
  } else {
    const json = JSON.parse(await readFile(rootFile, "utf8")) as { wrapped: string };
    rootKey = await hsm.unwrap(new Uint8Array(Buffer.from(json.wrapped, "base64")));
  }
  const snapPath = join(dir, "snapshot.bin");
  const snapshot = (await exists(snapPath)) ? decodeState(open(rootKey, new Uint8Array(await readFile(snapPath)), snapshotAd)) : createEmptyState();
  const logPath = join(dir, "log.bin");
  const raw = (await exists(logPath)) ? new Uint8Array(await readFile(logPath)) : new Uint8Array(0);
  const { entries, validBytes } = readLog(raw, rootKey);
  const log = await openCommandLog(logPath, rootKey, validBytes);
  return {
    rootKey,
    snapshot,
    entries: entries.filter((e) => e.index > snapshot.appliedIndex),
    fresh,
    log,
    async writeSnapshot(state) {
      await writeFileAtomic(snapPath, seal(rootKey, encodeState(state), snapshotAd));
      await log.truncate();
    },
    close: () => log.close(),
  };
}
