import { AppError } from "@mc/shared/errors";
import type { CatalogEntry } from "./catalog-entry.js";
import { isArch, isName, isOs } from "./names.js";
import { compareReleases, tryParseReleaseId } from "./release-id.js";

export interface ReleaseFilter {
  readonly component?: string;
  readonly os?: string;
  readonly arch?: string;
  /** 1–100; undefined returns everything. */
  readonly limit?: number;
  /** A release id: only records older than it. */
  readonly after?: string;
  /** Every word must appear in the id or in the notes (case-insensitive). */
  readonly query?: string;
}

export interface ReleasePage {
  readonly entries: readonly CatalogEntry[];
  /** Set when more records exist: the cursor for the next page. */
  readonly nextAfter: string | undefined;
}

function badParam(name: string): AppError {
  return new AppError("invalid_argument", `invalid query parameter '${name}'`, { details: { param: name } });
}

/** Checks the filter the way the REST contract words its 400s. */
export function checkFilter(filter: ReleaseFilter): void {
  if (filter.component !== undefined && !isName(filter.component)) throw badParam("component");
  if (filter.os !== undefined && !isOs(filter.os)) throw badParam("os");
  if (filter.arch !== undefined && !isArch(filter.arch)) throw badParam("arch");
  if (filter.limit !== undefined && (!Number.isInteger(filter.limit) || filter.limit < 1 || filter.limit > 100)) throw badParam("limit");
  if (filter.after !== undefined && !tryParseReleaseId(filter.after)) throw badParam("after");
}

export function newestFirst(entries: readonly CatalogEntry[]): CatalogEntry[] {
  return [...entries].sort((a, b) => compareReleases(b, a) || (a.component < b.component ? -1 : a.component > b.component ? 1 : 0));
}

/** Keeps only the platforms the os/arch filter asks for. */
function narrow(entry: CatalogEntry, filter: ReleaseFilter): CatalogEntry | undefined {
  if (filter.os === undefined && filter.arch === undefined) return entry;
  const platforms = entry.platforms.filter((p) => (filter.os === undefined || p.os === filter.os) && (filter.arch === undefined || p.arch === filter.arch));
  return platforms.length > 0 ? { ...entry, platforms } : undefined;
}

function matches(entry: CatalogEntry, words: readonly string[], notesOf: (e: CatalogEntry) => string): boolean {
  if (words.length === 0) return true;
  const haystack = `${entry.releaseId} ${entry.component} ${notesOf(entry)}`.toLowerCase();
  return words.every((w) => haystack.includes(w));
}

/**
 * The list route's semantics (contracts/releases.md §5): filters, newest
 * first, `after` cursor, `limit` with a next cursor when more exist.
 */
export function queryReleases(entries: readonly CatalogEntry[], filter: ReleaseFilter, notesOf: (e: CatalogEntry) => string = () => ""): ReleasePage {
  checkFilter(filter);
  const words = (filter.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  // The cursor's own publish date orders it among hotfixes of the same time.
  const cursorEntry = filter.after === undefined ? undefined : entries.find((e) => e.releaseId === filter.after);
  const cursor = filter.after === undefined ? undefined : { releaseId: filter.after, releaseDate: cursorEntry?.releaseDate ?? "9999" };
  const selected: CatalogEntry[] = [];
  for (const entry of newestFirst(entries)) {
    if (filter.component !== undefined && entry.component !== filter.component) continue;
    if (cursor && (entry.releaseId === cursor.releaseId || compareReleases(entry, cursor) >= 0)) continue;
    const narrowed = narrow(entry, filter);
    if (narrowed && matches(narrowed, words, notesOf)) selected.push(narrowed);
  }
  if (filter.limit === undefined || selected.length <= filter.limit) return { entries: selected, nextAfter: undefined };
  const page = selected.slice(0, filter.limit);
  return { entries: page, nextAfter: page.at(-1)?.releaseId };
}

/** The newest supported release matching the filter, if any. */
export function latestRelease(entries: readonly CatalogEntry[], filter: Omit<ReleaseFilter, "limit" | "after" | "query">): CatalogEntry | undefined {
  return queryReleases(
    entries.filter((e) => e.status === "supported"),
    filter,
  ).entries[0];
}
