import { usageError } from "../core/errors.js";
import type { McContext } from "../runtime/context.js";
import type { S3Target } from "../storage/s3/versions-target.js";
import { walkObjects } from "./versions-walk.js";

/** The walk flags of `tag list|set|remove` (-r, --versions, --rewind, --version-id). */
export interface TagWalkFlags {
  readonly recursive: boolean;
  readonly versions: boolean;
  readonly rewind?: string | undefined;
  readonly versionId?: string | undefined;
  /** tag set --exclude-folders: leave folder objects (`dir/`) out of a walk. */
  readonly excludeFolders?: boolean;
}

/** True when the command acts on a walk of objects rather than on the one TARGET. */
export function isTagWalk(flags: TagWalkFlags): boolean {
  return flags.recursive || flags.versions || flags.rewind !== undefined;
}

/**
 * Runs `act` on each object (version) the flags select, each as a target of
 * its own; failures are printed and counted (the return value, for the exit code).
 */
export async function walkTagTargets(ctx: McContext, t: S3Target, flags: TagWalkFlags, command: string, what: string, act: (target: S3Target, versionId: string) => Promise<void>): Promise<number> {
  if (flags.versionId !== undefined && (flags.recursive || flags.versions || flags.rewind !== undefined)) throw usageError(`${command}: --version-id cannot be used with --recursive, --versions or --rewind.`);
  if (flags.excludeFolders && !flags.recursive) throw usageError(`${command}: --exclude-folders needs --recursive.`);
  const opts = { command, recursive: flags.recursive, versions: flags.versions, rewind: flags.rewind, folderObjects: !flags.excludeFolders };
  return walkObjects(ctx, t, opts, what, (item) => act({ ...t, key: item.key, url: item.url }, item.versionId));
}
