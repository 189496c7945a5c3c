/** Go's time.Time String() of an RFC 3339 time in UTC: `2024-01-02 03:04:05.5 +0000 UTC` (fraction only when there is one). */
export function goTimeString(rfc3339: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(rfc3339);
  if (!m) return rfc3339;
  const frac = (m[3] ?? "").replace(/0+$/, "").replace(/^\.$/, "");
  if (m[4] === "Z") return `${m[1]} ${m[2]}${frac} +0000 UTC`;
  const off = (m[4] ?? "").replace(":", "");
  return `${m[1]} ${m[2]}${frac} ${off} ${off}`;
}

/** go-humanize Time(): `3 hours ago`, `2 days from now`, `now`. */
export function humanizeTime(then: Date, now = new Date()): string {
  const diff = (now.getTime() - then.getTime()) / 1000;
  const label = diff >= 0 ? "ago" : "from now";
  const d = Math.abs(diff);
  const steps: [number, string, number][] = [
    [1, "now", 0], [2, "1 second", 1], [60, "seconds", 1], [120, "1 minute", 60], [3600, "minutes", 60], [7200, "1 hour", 3600], [86400, "hours", 3600],
    [172800, "1 day", 86400], [604800, "days", 86400], [1209600, "1 week", 604800], [2628000, "weeks", 604800], [5256000, "1 month", 2628000],
    [31536000, "months", 2628000], [63072000, "1 year", 31536000], [Infinity, "years", 31536000],
  ];
  for (const [limit, text, unit] of steps) {
    if (d < limit) {
      if (text === "now") return "now";
      return /^\d/.test(text) ? `${text} ${label}` : `${Math.floor(d / unit)} ${text} ${label}`;
    }
  }
  return "";
}
