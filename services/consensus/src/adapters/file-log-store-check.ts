import { damaged } from "./file-log-store-damage.js";
import type { FileLogStoreOptions } from "./file-log-store.js";
import { replay } from "./file-log-store-replay.js";
import { closeScan, scanLogFolder } from "./file-log-store-scan.js";

export interface LogFolderReport {
  readonly segments: readonly string[];
  readonly entries: number;
  readonly snapshotIndex: number | undefined;
  /** A torn tail the next start would cut. */
  readonly torn: string | undefined;
  /** Some file is still in the first format. */
  readonly firstFormat: boolean;
}

/** Checks a log folder exactly as load() does, without writing anything (for an operator's report). */
export async function checkLogFolder(options: Omit<FileLogStoreOptions, "onValidated" | "segmentBytes">): Promise<LogFolderReport> {
  const label = options.label ?? "";
  const scan = await scanLogFolder({ dir: options.dir, key: options.rootKey, storeId: options.storeId ?? new Uint8Array(16), legacy: options.legacy ?? false, label });
  if (!scan.exists) throw damaged(label, 0, "the log folder is missing or empty");
  let r: ReturnType<typeof replay>;
  try {
    r = replay(scan, label);
  } finally {
    closeScan(scan);
  }
  const last = scan.segments.at(-1);
  const torn = last?.v2?.torn;
  return {
    segments: scan.segments.map((s) => s.name),
    entries: r.entries.length,
    snapshotIndex: r.snapshot?.meta.index,
    torn: last && torn ? `${label}${last.name}: ${torn.bytes} bytes after byte ${last.v2?.end ?? 0} (${torn.why})` : undefined,
    firstFormat: scan.segments.some((s) => !s.v2) || scan.snapshot?.legacy === true,
  };
}
