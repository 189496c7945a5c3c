import type { McContext } from "../runtime/context.js";
import { mcError } from "../core/errors.js";
import { parseRewind } from "../storage/s3/versions/rewind-time.js";
import { createRewoundStore } from "../storage/s3/versions/rewound-store.js";
import { requireObject, type S3Target } from "../storage/s3/versions-target.js";

export interface WalkOptions {
  /** The command as typed (`legalhold set`), for usage errors. */
  readonly command: string;
  readonly recursive: boolean;
  /** Every version instead of the latest. */
  readonly versions: boolean;
  readonly versionId?: string | undefined;
  /** `--rewind`: act on the version(s) that existed at that moment. */
  readonly rewind?: string | undefined;
  /** Objects whose key ends in `/` (folder markers) are acted on too (tag -r). */
  readonly folderObjects?: boolean;
}

/** One object (version) to act on: its key and its version id ("" = latest). */
export interface WalkItem {
  readonly key: string;
  readonly versionId: string;
  readonly url: string;
}

/**
 * Calls `act` for the target object, or with -r for every object under the
 * prefix (with --versions for every version; delete markers are skipped, the
 * lock APIs do not apply to them). Failures are printed and counted; finding
 * nothing at all is an error too, as upstream.
 */
export async function walkObjects(ctx: McContext, t: S3Target, opts: WalkOptions, what: string, act: (item: WalkItem) => Promise<void>): Promise<number> {
  // Rewound, each item names its version: "the latest" would be today's.
  const store = opts.rewind === undefined ? t.store : createRewoundStore(t.store, parseRewind(opts.rewind, Date.now()));
  const pinned = opts.versions || opts.rewind !== undefined;
  const notFound = (): Error => mcError(`Unable to find any object/version to ${what} under \`${t.url}\`.`, undefined, "not_found");
  if (opts.versionId !== undefined || (!opts.recursive && !opts.versions)) {
    requireObject(t, opts.command);
    let versionId = opts.versionId ?? "";
    if (opts.rewind !== undefined) {
      const info = await store.stat(t.key);
      if (!info) throw notFound();
      versionId = info.versionId ?? "null";
    }
    await act({ key: t.key, versionId, url: t.url });
    return 0;
  }
  let failed = 0;
  let found = 0;
  const prefix = opts.recursive ? t.key : t.key.slice(0, t.key.lastIndexOf("/") + 1);
  for await (const e of store.list(prefix, { recursive: true, versions: opts.versions })) {
    if ((e.isDir && !(opts.folderObjects && e.key.endsWith("/"))) || e.isDeleteMarker) continue;
    if (!opts.recursive && e.key !== t.key) continue;
    found++;
    const item = { key: e.key, versionId: pinned ? (e.versionId ?? "") : "", url: t.store.url(e.key) };
    try {
      await act(item);
    } catch (err) {
      ctx.output.error(err);
      failed++;
    }
  }
  if (found === 0) throw notFound();
  return failed;
}
