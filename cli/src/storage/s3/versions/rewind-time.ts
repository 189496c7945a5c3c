import { usageError } from "../../../core/errors.js";
import { parseDuration } from "../../../util/humanize.js";

const dotted = /^(\d{4})\.(\d{2})\.(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * The moment `--rewind` names: a duration back from `now` (`7d`, `1h30m`), a
 * UTC time as mc writes it (`2026.01.02`, `2026.01.02T15:04`,
 * `2026.01.02T15:04:05`) or an RFC 3339 time with its zone.
 */
export function parseRewind(text: string, now: number): Date {
  const ago = parseDuration(text);
  if (ago !== undefined) return new Date(now - ago);
  const d = dotted.exec(text);
  if (d) {
    const [year, month, day, hour, minute, second] = d.slice(1).map((part) => Number(part ?? 0));
    const at = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1, hour ?? 0, minute ?? 0, second ?? 0));
    // Date.UTC rolls 2026.02.30 over into March: refuse what is not a real day.
    if (at.getUTCMonth() === (month ?? 1) - 1 && at.getUTCDate() === day && (hour ?? 0) < 24 && (minute ?? 0) < 60 && (second ?? 0) < 60) return at;
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) {
    const at = Date.parse(text);
    if (!Number.isNaN(at)) return new Date(at);
  }
  throw usageError(`invalid --rewind \`${text}\`; use a duration such as 7d or 1h30m, or a time such as 2026.01.02T15:04 (UTC) or 2026-01-02T15:04:05Z.`);
}
