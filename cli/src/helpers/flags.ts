import { usageError } from "../core/errors.js";
import type { AgeFilter } from "../transfer/plan.js";
import { parseDuration } from "../util/humanize.js";

/** --older-than / --newer-than values (`7d10h31s`) as an age filter. */
export function ageFilter(olderThan: string | undefined, newerThan: string | undefined): AgeFilter {
  const parse = (flag: string, value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    const ms = parseDuration(value);
    if (ms === undefined) throw usageError(`invalid duration \`${value}\` for ${flag}.`);
    return ms;
  };
  const older = parse("--older-than", olderThan);
  const newer = parse("--newer-than", newerThan);
  return { ...(older === undefined ? {} : { olderThan: older }), ...(newer === undefined ? {} : { newerThan: newer }) };
}

export function requireCount(args: readonly string[], min: number, what: string): void {
  if (args.length < min) throw usageError(`${what}.`);
}
