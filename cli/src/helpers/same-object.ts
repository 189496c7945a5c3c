import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { Location } from "../storage/location.js";

/**
 * Whether a copy would write onto its own source: one local file (the same
 * path, or the same inode through a link), or one object of one bucket on
 * one server (through any alias). `mv` would then remove what it just wrote.
 */
export async function sameObject(src: Location, srcKey: string, dst: Location, dstKey: string): Promise<boolean> {
  if (src.kind === "s3" && dst.kind === "s3") return src.alias.url === dst.alias.url && src.bucket === dst.bucket && srcKey === dstKey;
  if (src.kind !== "local" || dst.kind !== "local") return false;
  if (resolve(srcKey) === resolve(dstKey)) return true;
  const target = await stat(dstKey, { bigint: true }).catch(() => undefined);
  if (!target) return false;
  const source = await stat(srcKey, { bigint: true }).catch(() => undefined);
  return source !== undefined && source.dev === target.dev && source.ino === target.ino;
}
