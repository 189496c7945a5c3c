import { mcError, usageError } from "../core/errors.js";
import type { ObjectInfo } from "../storage/types.js";

/** One `--metadata k=re` or `--tags k=re` condition. */
export interface KeyPattern {
  readonly key: string;
  readonly pattern: RegExp;
}

/** `KEY=REGEX` values of a repeatable flag; a malformed one is a usage error. */
export function parseKeyPatterns(flag: string, values: readonly string[]): KeyPattern[] {
  return values.map((text) => {
    const eq = text.indexOf("=");
    if (eq <= 0) throw usageError(`invalid ${flag} \`${text}\`; use KEY=REGEX.`);
    try {
      return { key: text.slice(0, eq).toLowerCase(), pattern: new RegExp(text.slice(eq + 1)) };
    } catch (err) {
      throw mcError(`Invalid ${flag} \`${text}\`.`, err, "invalid_argument");
    }
  });
}

/** Every condition holds for some value whose key matches it, case-insensitively. */
export function matchesAll(patterns: readonly KeyPattern[], values: ReadonlyMap<string, string>): boolean {
  return patterns.every((p) => {
    const value = values.get(p.key);
    return value !== undefined && p.pattern.test(value);
  });
}

/** An object's metadata by lower-case key: user metadata under its own name and with X-Amz-Meta-, plus Content-Type. */
export function metadataOf(info: ObjectInfo): Map<string, string> {
  const out = new Map<string, string>();
  if (info.contentType) out.set("content-type", info.contentType);
  for (const [k, v] of Object.entries(info.metadata)) {
    const lower = k.toLowerCase();
    out.set(lower, v);
    if (lower.startsWith("x-amz-meta-")) out.set(lower.slice("x-amz-meta-".length), v);
  }
  return out;
}

/** Tags by lower-case key. */
export function tagMap(tags: Readonly<Record<string, string>>): Map<string, string> {
  return new Map(Object.entries(tags).map(([k, v]) => [k.toLowerCase(), v]));
}
