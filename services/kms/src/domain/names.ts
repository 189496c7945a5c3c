import { AppError } from "@mc/shared/errors";

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
