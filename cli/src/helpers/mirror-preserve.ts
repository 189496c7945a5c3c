import { utimes } from "node:fs/promises";
import type { Entry, Store } from "../storage/types.js";
import type { CopyJob } from "../transfer/copy.js";
import { applyMcAttrs, mcAttrsHeader, mcAttrsOf, parseMcAttrs } from "../storage/local/preserve-attrs.js";

/**
 * `mirror --preserve` (-a): file attributes travel as cp -a carries them
 * (X-Amz-Meta-Mc-Attrs), and a later run must find an unchanged file
 * unchanged, so the time a copy is judged by is the preserved one: a
 * download gets the original mtime back (from Mc-Attrs, or the object's own
 * time when it has none), and an upload's Mc-Attrs keeps the file's mtime.
 */

const attrsOf = (metadata: Readonly<Record<string, string>> | undefined): string | undefined => {
  for (const [k, v] of Object.entries(metadata ?? {})) if (k.toLowerCase() === mcAttrsHeader.toLowerCase()) return v;
  return undefined;
};

/** Milliseconds of an Mc-Attrs mtime. */
function attrsMtime(text: string | undefined): number | undefined {
  const t = text === undefined ? undefined : parseMcAttrs(text).mtime;
  return t === undefined ? undefined : t.s * 1000 + Math.floor(t.ns / 1e6);
}

/** What -a adds to one mirror copy. */
export async function preservedCopy(src: Store, srcKey: string, srcEntry: Entry, dst: Store, dstKey: string, headers: Readonly<Record<string, string>> | undefined): Promise<Pick<CopyJob, "headers" | "finish">> {
  if (src.kind === "local" && dst.kind === "s3") return { headers: { ...headers, [mcAttrsHeader]: await mcAttrsOf(srcKey) } };
  if (src.kind === "s3" && dst.kind === "s3") {
    const text = attrsOf((await src.stat(srcKey))?.metadata);
    return text === undefined ? (headers ? { headers } : {}) : { headers: { ...headers, [mcAttrsHeader]: text } };
  }
  if (dst.kind !== "local") return headers ? { headers } : {};
  return {
    ...(headers ? { headers } : {}),
    async finish() {
      const text = src.kind === "local" ? await mcAttrsOf(srcKey) : attrsOf((await src.stat(srcKey))?.metadata);
      if (text !== undefined) await applyMcAttrs(dstKey, parseMcAttrs(text));
      // An object without attributes: the file keeps the object's time, so the next run sees it unchanged.
      else await utimes(dstKey, srcEntry.lastModified, srcEntry.lastModified);
    },
  };
}

/**
 * With -a, a copy whose source only looks newer (same size) is unchanged
 * when the preserved times agree: the object's Mc-Attrs mtime (or its own
 * time) against a downloaded file's mtime, a file's mtime against the
 * uploaded object's Mc-Attrs.
 */
export async function preservedUnchanged(src: Store, srcKey: string, srcEntry: Entry, dst: Store, dstKey: string, dstEntry: Entry): Promise<boolean> {
  // S3 keeps whole seconds: the same second is the same time.
  const near = (a: number | undefined, b: number): boolean => a !== undefined && Math.floor(a / 1000) === Math.floor(b / 1000);
  if (src.kind === "s3" && dst.kind === "local") {
    const info = await src.stat(srcKey);
    return near(attrsMtime(attrsOf(info?.metadata)) ?? info?.lastModified.getTime(), dstEntry.lastModified.getTime());
  }
  if (dst.kind === "s3") {
    const info = await dst.stat(dstKey);
    const srcTime = src.kind === "local" ? srcEntry.lastModified.getTime() : (attrsMtime(attrsOf((await src.stat(srcKey))?.metadata)) ?? srcEntry.lastModified.getTime());
    return near(attrsMtime(attrsOf(info?.metadata)), srcTime);
  }
  return false;
}
