import { isAppError } from "@mc/shared/errors";
import type { McContext } from "../runtime/context.js";
import { mcError } from "../core/errors.js";
import type { Location } from "../storage/location.js";
import type { Entry } from "../storage/types.js";
import type { WatchEvent } from "../storage/watch-event.js";
import { watchLocal } from "../storage/local/watch-local.js";
import { watchRemote } from "../storage/s3/watch-remote.js";

/**
 * `find --watch` (upstream cmd/find.go watchFind): after the listing, every
 * object created below the path is judged by the same filters as it
 * appears, until Ctrl-C. A bucket needs MinIO's ListenBucketNotification (a
 * server without it fails in one line); a folder is watched through the file
 * system. Events are handled one after another, so `--exec` runs in order.
 */
export async function watchFound(ctx: McContext, loc: Location, prefix: string, consider: (e: Entry) => Promise<void>): Promise<void> {
  let queue = Promise.resolve();
  let failed: unknown;
  const handle = (key: string, ev: WatchEvent): void => {
    const entry: Entry = { key, size: ev.size, lastModified: new Date(ev.time), etag: "", isDir: false };
    queue = queue.then(() => consider(entry)).catch((err: unknown) => {
      failed ??= err;
    });
  };
  const options = { events: new Set(["put"]), suffix: "", signal: ctx.signal };
  try {
    if (loc.kind === "local") {
      await watchLocal(prefix.replace(/\/$/, "") || "/", { ...options, prefix: "" }, (ev) => handle(ev.path, ev));
    } else {
      const base = `${loc.alias.name}/${loc.bucket}/`;
      await watchRemote(loc.client, loc.alias.name, loc.bucket, { ...options, prefix }, (ev) => handle(ev.path.startsWith(base) ? ev.path.slice(base.length) : ev.path, ev));
    }
  } catch (err) {
    if (isAppError(err)) throw err;
    throw mcError(`Unable to watch \`${loc.arg}\`.`, err);
  }
  await queue;
  if (failed !== undefined) throw failed;
}
