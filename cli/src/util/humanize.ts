/** Text formats of contracts/mc.md §6 (humanize IBytes, Go time layouts). */
const units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"] as const;

/** humanize.IBytes: `N B` under 10 bytes, one decimal below 10 units, else none. */
export function iBytes(size: number): string {
  if (size < 10) return `${size} B`;
  const e = Math.min(Math.floor(Math.log(size) / Math.log(1024)), units.length - 1);
  const value = Math.floor((size / 1024 ** e) * 10 + 0.5) / 10;
  const text = value < 10 ? value.toFixed(1) : value.toFixed(0);
  return `${text} ${units[e] ?? "B"}`;
}

/** `ls`/`du` drop the space: `1.5KiB`. */
export function iBytesCompact(size: number): string {
  return iBytes(size).replace(" ", "");
}

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

// Building a DateTimeFormat costs milliseconds: one per process, not one per listed line.
let zoneFormat: Intl.DateTimeFormat | undefined;

function zoneName(date: Date): string {
  // Every zone at offset 0 prints as UTC here (GMT is mapped below), and
  // loading ICU's zone names is tens of milliseconds of an ls's start-up.
  if (date.getTimezoneOffset() === 0) return "UTC";
  zoneFormat ??= new Intl.DateTimeFormat("en-US", { timeZoneName: "short" });
  const part = zoneFormat.formatToParts(date).find((p) => p.type === "timeZoneName");
  const name = part?.value ?? "UTC";
  return name === "GMT" ? "UTC" : name;
}

/** Go layout `2006-01-02 15:04:05 MST` in the local zone. */
export function formatDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())} ${zoneName(date)}`;
}

/** RFC 3339 with fraction in the local zone (Go's time.RFC3339Nano on a local time). */
export function rfc3339Local(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const zone = offset === 0 ? "Z" : `${offset > 0 ? "+" : "-"}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  const ms = date.getMilliseconds();
  const fraction = ms === 0 ? "" : `.${pad(ms, 3).replace(/0+$/, "")}`;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}${fraction}${zone}`;
}

const durationUnits: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  y: 365 * 86_400_000,
};

/** Durations such as `7d10h31s` (units ns us ms s m h d w y), in milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d|w|y)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * (durationUnits[m[2] ?? ""] ?? 0);
    consumed = re.lastIndex;
  }
  return consumed === text.length && text.length > 0 ? total : undefined;
}

/** Sizes for find --larger/--smaller, put --part-size: k/m/g/t are SI, ki/mi/gi/ti IEC, optional trailing b. */
export function parseSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([kmgtpe]i?)?b?$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = (m[2] ?? "").toLowerCase();
  const power = unit === "" ? 0 : "kmgtpe".indexOf(unit[0] ?? "") + 1;
  const base = unit.endsWith("i") ? 1024 : 1000;
  return Math.round(Number(m[1]) * base ** power);
}

/** Go-style duration text for share: `7 days 0 hours 0 minutes 0 seconds`. */
export function expiryText(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 86400)} days ${Math.floor((s % 86400) / 3600)} hours ${Math.floor((s % 3600) / 60)} minutes ${s % 60} seconds`;
}
