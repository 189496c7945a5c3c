import type { McContext } from "../runtime/context.js";
import { adminFailure } from "./admin-errors.js";
import type { AdminClient } from "./admin-client.js";
import { humanizeTime } from "./go-time.js";
import { prettyRow } from "./user-run.js";

/** What a server without MinIO's admin API lacks, for the one-line failure (as scanner status says it). */
const capability = "The scanner's metrics";

/** madmin v3 `BucketScanInfo` as mc prints it (Go field names: the type has no JSON tags). */
interface BucketScanInfo {
  Pool: number;
  Set: number;
  Cycle: number;
  Ongoing: boolean;
  LastUpdate: string;
  LastStarted: string;
  Completed: string[] | null;
}

const zeroTime = "0001-01-01T00:00:00Z";

function scanInfo(v: unknown): BucketScanInfo {
  const o = typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
  const n = (k: string): number => (typeof o[k] === "number" ? (o[k] as number) : 0);
  const s = (k: string): string => (typeof o[k] === "string" ? (o[k] as string) : zeroTime);
  const completed = Array.isArray(o["Completed"]) ? o["Completed"].filter((t): t is string => typeof t === "string") : null;
  return { Pool: n("Pool"), Set: n("Set"), Cycle: n("Cycle"), Ongoing: o["Ongoing"] === true, LastUpdate: s("LastUpdate"), LastStarted: s("LastStarted"), Completed: completed };
}

const dhm = (ms: number): string => `${Math.trunc(ms / 8.64e7)}d${Math.trunc(ms / 3.6e6) % 24}h${Math.trunc(ms / 6e4) % 60}m`;

/** upstream `bucketScanMsg.String()`: each erasure set's last update, and the full scan when every set has 16 cycles done. */
export function bucketScanText(stats: readonly BucketScanInfo[], now = new Date()): string {
  const row = (cells: readonly string[]): string => prettyRow(cells, [5, 5, 20], " | ");
  const sorted = [...stats].sort((a, b) => Date.parse(a.LastUpdate) - Date.parse(b.LastUpdate));
  let out = `\n${row(["Pool", "Set", "Last Update"])}\n`;
  for (const s of sorted) out += `${row([String(s.Pool + 1), String(s.Set + 1), humanizeTime(new Date(s.LastUpdate), now)])}\n`;
  // The latest first completion and the earliest last one across the sets (upstream's bounds).
  let earliest = Number.NaN;
  let latest = Number.NaN;
  let full = true;
  for (const s of sorted) {
    const done = (s.Completed ?? []).map((t) => Date.parse(t));
    if (done.length < 16) {
      full = false;
      break;
    }
    const first = done[0] ?? 0;
    const last = done[done.length - 1] ?? 0;
    if (Number.isNaN(earliest)) [earliest, latest] = [first, last];
    else {
      if (earliest < first) earliest = first;
      if (latest > last) latest = last;
    }
  }
  out += "\n";
  if (full && !Number.isNaN(latest)) out += `Full bucket scan:  ${humanizeTime(new Date(latest), now)} (took ${dhm(latest - earliest)})\n`;
  return out;
}

/** `mc admin scanner status ALIAS --bucket B`: madmin v3 `BucketScanInfo`, GET /scanner/status/B (v2.0.7 has no such call). */
export async function runBucketScanStatus(ctx: McContext, client: AdminClient, bucket: string): Promise<void> {
  const raw = await client.json<unknown>({ method: "GET", path: `/scanner/status/${bucket}` }).catch((err: unknown) => {
    throw adminFailure("Unable to get bucket stats", capability, err);
  });
  const stats = (Array.isArray(raw) ? raw : []).map(scanInfo);
  ctx.output.result({ status: "success", stats }, bucketScanText(stats));
}
