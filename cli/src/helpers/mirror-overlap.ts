import { realpath } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { mcError } from "../core/errors.js";
import type { Location } from "../storage/location.js";
import { dirPrefix } from "../transfer/plan.js";

/** A local path as the file system resolves it (links followed) for the part of it that exists. */
async function real(path: string): Promise<string> {
  const absolute = resolve(path);
  try {
    return await realpath(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(await real(parent), basename(absolute));
  }
}

/** The folder a location names, comparable across the two sides: a server's URL and bucket, or the real local path. */
async function folderOf(loc: Location): Promise<string> {
  if (loc.kind === "s3") return `${loc.alias.url}/${loc.bucket}/${dirPrefix(loc.key)}`;
  const path = await real(loc.key);
  return path.endsWith("/") ? path : `${path}/`;
}

/**
 * Refuses a mirror between a folder and one inside it (or itself). Into its
 * own subfolder, every run copies the source again one level deeper, and
 * --watch never stops; the other way round, --remove deletes the source's
 * own files as extra objects on the target.
 */
export async function refuseOverlap(src: Location, dst: Location): Promise<void> {
  if (src.kind !== dst.kind) return;
  const [from, to] = [await folderOf(src), await folderOf(dst)];
  if (!from.startsWith(to) && !to.startsWith(from)) return;
  throw mcError(`Unable to mirror \`${src.arg}\` to \`${dst.arg}\`: one is inside the other. Mirror into a folder outside the source.`, undefined, "invalid_argument");
}
