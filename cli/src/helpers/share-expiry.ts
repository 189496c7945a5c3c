import { usageError } from "../core/errors.js";
import { parseDuration } from "../util/humanize.js";

const maxMs = 7 * 24 * 3600 * 1000;

/** --expire as a Go duration; default and maximum 168h. */
export function parseExpiry(text: string | undefined): number {
  if (text === undefined) return maxMs;
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0) throw usageError(`invalid --expire \`${text}\`.`);
  if (ms > maxMs) throw usageError("expiry cannot be larger than 7 days.");
  return ms;
}
