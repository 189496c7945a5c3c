import { usageError } from "../../../core/errors.js";

export interface LockFlags {
  readonly isDefault: boolean;
  readonly recursive: boolean;
  readonly versions: boolean;
  readonly versionId: string | undefined;
  readonly rewind: string | undefined;
}

/** `--default` acts on the bucket and takes none of the object flags (contracts/mc.md §7). */
export function checkLockFlags(command: string, f: LockFlags): void {
  if (f.isDefault && (f.recursive || f.versions || f.versionId !== undefined || f.rewind !== undefined)) {
    throw usageError(`${command} --default applies to a bucket and cannot be combined with -r, --versions, --version-id or --rewind.`);
  }
  if (f.versionId !== undefined && (f.recursive || f.versions || f.rewind !== undefined)) throw usageError(`${command}: --version-id cannot be combined with -r, --versions or --rewind.`);
}
