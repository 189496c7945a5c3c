import { AppError } from "@mc/shared/errors";
import type { SortedNames } from "./sorted-names.js";

/** Key, policy and enclave names (contract §1), as in KES. */
const namePattern = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,78}[A-Za-z0-9_])?$/;

export type NameKind = "key" | "policy" | "enclave";

export function isValidName(name: string): boolean {
  return name !== "_" && namePattern.test(name);
}

export function invalidName(kind: NameKind, name: string): AppError {
  return new AppError("invalid_argument", `${kind} name '${name}' is empty, too long or contains invalid characters`);
}

/** Throws the contract's 400 for a bad name; returns the name otherwise. */
export function checkName(kind: NameKind, name: string): string {
  if (!isValidName(name)) throw invalidName(kind, name);
  return name;
}

/**
 * List patterns: a prefix with an optional single trailing `*`; `*` is all.
 * Without `*` the pattern is an exact name. Returns undefined for a pattern
 * that cannot match anything valid (a `*` elsewhere).
 */
export function listMatcher(pattern: string): ((name: string) => boolean) | undefined {
  const star = pattern.indexOf("*");
  if (star >= 0 && star !== pattern.length - 1) return undefined;
  if (star < 0) return (name) => name === pattern;
  const prefix = pattern.slice(0, -1);
  return (name) => name.startsWith(prefix);
}

export interface Page {
  readonly items: readonly string[];
  readonly continueAt: string;
}

/** Sorted, filtered page of names starting at `continueAt` (inclusive). */
export function pageOf(names: Iterable<string>, pattern: string, continueAt: string, limit: number): Page {
  const match = listMatcher(pattern);
  if (!match) return { items: [], continueAt: "" };
  const sorted = [...names].filter(match).sort();
  const from = continueAt === "" ? 0 : sorted.findIndex((n) => n >= continueAt);
  if (from < 0) return { items: [], continueAt: "" };
  const max = limit > 0 ? limit : sorted.length;
  const items = sorted.slice(from, from + max);
  return { items, continueAt: sorted[from + max] ?? "" };
}

/**
 * The names matching `pattern` from `continueAt` (inclusive), in order, read
 * from a sorted index `slice` names at a time: each slice is a fresh search
 * after the last name given, so the walk costs what it yields (not the
 * keyspace) and stays in order, without repeats, while names come and go.
 */
export function* matchingNames(index: SortedNames, pattern: string, continueAt: string, slice = 1000): Generator<string[]> {
  const match = listMatcher(pattern);
  if (!match) return;
  if (!pattern.endsWith("*")) {
    if (pattern >= continueAt && index.slice(pattern, 1)[0] === pattern) yield [pattern];
    return;
  }
  const prefix = pattern.slice(0, -1);
  let from = continueAt > prefix ? continueAt : prefix;
  let exclusive = false;
  for (;;) {
    const got = index.slice(from, slice, exclusive);
    const items = got.filter(match);
    if (items.length > 0) yield items;
    // Names with one prefix are contiguous in sorted order: the first that misses ends the walk.
    if (items.length < got.length || got.length < slice) return;
    from = got[got.length - 1] as string;
    exclusive = true;
  }
}

/** `pageOf` over a sorted index: the same page, for the cost of the page. */
export function pageOfSorted(index: SortedNames, pattern: string, continueAt: string, limit: number): Page {
  const want = limit > 0 ? limit + 1 : Number.POSITIVE_INFINITY;
  const items: string[] = [];
  for (const part of matchingNames(index, pattern, continueAt, limit > 0 ? Math.min(limit + 1, 1000) : 1000)) {
    items.push(...part.slice(0, want - items.length));
    if (items.length >= want) break;
  }
  if (limit <= 0 || items.length <= limit) return { items, continueAt: "" };
  return { items: items.slice(0, limit), continueAt: items[limit] as string };
}
