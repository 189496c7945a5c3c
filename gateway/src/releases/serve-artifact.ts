import { createHash } from "node:crypto";
import { AppError } from "@mc/shared/errors";
import type { ReleaseStore } from "@mc/releases";
import { notModified, parseRange } from "../http/conditional.js";
import type { RestRequest, RestResponse } from "@mc/shared/rest";
import type { Artifact } from "./artifact-path.js";

const cacheControl = { immutable: "public, max-age=31536000, immutable", latest: "public, max-age=300" } as const;
/** Files up to this size are hashed for their ETag when no checksum file names their hash. */
const hashLimit = 8 * 1024 * 1024;

/**
 * Strong ETags for files, memoised per path, size and mtime: a binary's
 * comes from its `.sha256sum`, a small file's from hashing it.
 */
export function createEtagSource(store: ReleaseStore): (artifact: Artifact, size: number, mtime: Date) => Promise<string | undefined> {
  const memo = new Map<string, Promise<string | undefined>>();
  return (artifact, size, mtime) => {
    const key = `${artifact.path}\0${size}\0${mtime.getTime()}`;
    let etag = memo.get(key);
    if (!etag) {
      etag = (async () => {
        if (artifact.checksumPath) {
          const sum = await store.read(artifact.checksumPath);
          const hex = sum ? /^[0-9a-f]{64}/.exec(new TextDecoder().decode(sum))?.[0] : undefined;
          if (hex) return `"${hex}"`;
        }
        if (size > hashLimit) return undefined;
        const bytes = await store.read(artifact.path);
        return bytes ? `"${createHash("sha256").update(bytes).digest("hex")}"` : undefined;
      })();
      if (memo.size > 50000) memo.clear();
      memo.set(key, etag);
    }
    return etag;
  };
}

/** Streams a store file with validators, `Range` (206/416) and `If-Range`. */
export async function serveArtifact(req: RestRequest, artifact: Artifact, store: ReleaseStore, etagOf: ReturnType<typeof createEtagSource>): Promise<RestResponse> {
  const stat = await store.stat(artifact.path);
  if (!stat) throw new AppError("not_found", "file not found");
  const etag = await etagOf(artifact, stat.size, stat.modified);
  const headers: Record<string, string> = {
    "content-type": artifact.contentType,
    "cache-control": cacheControl[artifact.cacheClass],
    "last-modified": stat.modified.toUTCString(),
    "accept-ranges": "bytes",
  };
  if (etag) headers.etag = etag;
  if (artifact.attachment) headers["content-disposition"] = `attachment; filename="${artifact.attachment}"`;
  if (etag ? notModified(req.headers, etag, stat.modified) : notModified(req.headers, "", stat.modified)) return { status: 304, headers };

  const ifRange = req.headers["if-range"];
  const rangeAllowed = ifRange === undefined || ifRange === etag || ifRange === headers["last-modified"];
  const range = rangeAllowed ? parseRange(req.headers.range, stat.size) : ({ kind: "full" } as const);
  if (range.kind === "unsatisfiable") {
    return { status: 416, headers: { ...headers, "content-range": `bytes */${stat.size}`, "content-type": "application/json; charset=utf-8" }, body: { code: 416, message: "range not satisfiable" } };
  }
  const span = range.kind === "partial" ? { start: range.start, end: range.end } : undefined;
  const body = req.method === "HEAD" ? undefined : await store.openRead(artifact.path, span);
  if (req.method !== "HEAD" && !body) throw new AppError("not_found", "file not found");
  headers["content-length"] = String(span ? span.end - span.start + 1 : stat.size);
  if (span) headers["content-range"] = `bytes ${span.start}-${span.end}/${stat.size}`;
  return { status: span ? 206 : 200, headers, ...(body ? { stream: body } : {}) };
}
