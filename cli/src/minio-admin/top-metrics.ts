import type { AdminClient } from "./admin-client.js";
import { goDurationString } from "./batch.js";
import { streamJson } from "./json-stream.js";
import { usageError } from "../core/errors.js";

export const metricsCapability = "Realtime cluster metrics";

/** madmin MetricType bits (v3; v2.0.7 stops at MetricsSiteResync). */
export const metricTypes = { disk: 2, net: 32, rpc: 256 } as const;

export interface MetricsQuery {
  readonly types: number;
  /** Samples before the server ends the answer; 0 = endless. */
  readonly n: number;
  readonly intervalMs: number;
  readonly hosts?: readonly string[];
  readonly byHost?: boolean;
  readonly byDisk?: boolean;
}

/**
 * madmin `Metrics`: GET /metrics?types&n&interval&hosts[&by-host=true]&disks[&by-disk=true],
 * one JSON record per sample, until a record says final (true is returned)
 * or the connection ends, which madmin reports as an unexpected EOF.
 */
export async function followMetrics(client: AdminClient, q: MetricsQuery, each: (m: Record<string, unknown>) => void): Promise<void> {
  const query: Record<string, string> = { types: String(q.types), n: String(q.n), interval: goDurationString(q.intervalMs), hosts: (q.hosts ?? []).join(","), disks: "" };
  if (q.byHost) query["by-host"] = "true";
  if (q.byDisk) query["by-disk"] = "true";
  let final = false;
  await streamJson(client, { method: "GET", path: "/metrics", query }, (v, stop) => {
    const m = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    each(m);
    if (m["final"] === true) {
      final = true;
      stop();
    }
  });
  if (!final) throw new Error("unexpected EOF");
}

/** A whole number flag (`--interval 1`, `--n 0`). */
export function wholeNumber(flag: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw usageError(`invalid value "${value}" for flag ${flag}.`);
  return n;
}
