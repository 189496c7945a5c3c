import type { IncomingHttpHeaders } from "node:http";

/** `If-None-Match` (weak comparison, takes precedence) or `If-Modified-Since` (RFC 9110 §13). */
export function notModified(headers: IncomingHttpHeaders, etag: string, lastModified: Date | undefined): boolean {
  const inm = headers["if-none-match"];
  if (inm !== undefined) {
    const strip = (t: string): string => t.trim().replace(/^W\//, "");
    const tag = strip(etag);
    return inm.split(",").some((t) => t.trim() === "*" || strip(t) === tag);
  }
  const ims = headers["if-modified-since"];
  if (ims !== undefined && lastModified) {
    const since = Date.parse(ims);
    return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000);
  }
  return false;
}

/** One `bytes=a-b` range against a size (RFC 9110 §14); several ranges get the full body. */
export type RangeAnswer = { kind: "full" } | { kind: "partial"; start: number; end: number } | { kind: "unsatisfiable" };

export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: "full" };
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return { kind: "full" };
  const [, a = "", b = ""] = m;
  if (a === "" && b === "") return { kind: "full" };
  let start: number;
  let end: number;
  if (a === "") {
    const suffix = Number(b);
    if (suffix === 0) return { kind: "unsatisfiable" };
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === "" ? size - 1 : Math.min(Number(b), size - 1);
    if (b !== "" && Number(b) < start) return { kind: "full" };
  }
  if (start >= size || size === 0) return { kind: "unsatisfiable" };
  return { kind: "partial", start, end };
}
