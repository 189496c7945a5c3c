import type { AdminClient } from "./admin-client.js";
import { goDurationString } from "./batch.js";
import { streamJson } from "./json-stream.js";

/** What a server without MinIO's admin API lacks, for the one-line failure. */
export const perfCapability = "Performance testing";

const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export interface ObjectPerfOptions {
  readonly size: number;
  readonly durationMs: number;
  readonly concurrent: number;
  /** Upstream tunes the concurrency unless --concurrent is given. */
  readonly autotune: boolean;
  readonly bucket: string;
}

/**
 * madmin `Speedtest`: POST /speedtest?size&duration&concurrent[&bucket][&autotune=true];
 * the answer streams ever better results, the last one with a version is
 * the result (upstream keeps the last).
 */
export async function objectPerf(client: AdminClient, o: ObjectPerfOptions): Promise<Record<string, unknown>> {
  const query: Record<string, string> = { size: String(o.size), duration: goDurationString(o.durationMs), concurrent: String(o.concurrent) };
  if (o.bucket !== "") query["bucket"] = o.bucket;
  if (o.autotune) query["autotune"] = "true";
  let last: Record<string, unknown> = {};
  await streamJson(client, { method: "POST", path: "/speedtest", query }, (v) => {
    if (str(obj(v)["version"]) !== "") last = obj(v);
  });
  if (str(last["version"]) === "") throw new Error("the server sent no object speed test result");
  return last;
}

/** madmin `DriveSpeedtest`: POST /speedtest/drive?[serial=true&]blocksize&filesize; one result per server. */
export async function drivePerf(client: AdminClient, o: { serial: boolean; blockSize: number; fileSize: number }): Promise<Record<string, unknown>[]> {
  const query: Record<string, string> = { blocksize: String(o.blockSize), filesize: String(o.fileSize) };
  if (o.serial) query["serial"] = "true";
  const out: Record<string, unknown>[] = [];
  await streamJson(client, { method: "POST", path: "/speedtest/drive", query }, (v) => {
    if (str(obj(v)["version"]) !== "") out.push(obj(v));
  });
  return out;
}

/** madmin `Netperf`: POST /speedtest/net?duration; one JSON answer. */
export async function netPerf(client: AdminClient, durationMs: number): Promise<Record<string, unknown>> {
  return obj(await client.json<unknown>({ method: "POST", path: "/speedtest/net", query: { duration: goDurationString(durationMs) } }));
}

const timingKeys = ["avg", "p50", "p75", "p95", "p99", "p999", "l5p", "s5p", "max", "min", "sdev", "range"] as const;
const timings = (v: unknown): Record<string, number> => Object.fromEntries(timingKeys.map((k) => [k, num(obj(v)[k])]));

function statServers(stats: Record<string, unknown>): Record<string, unknown>[] {
  return list(stats["servers"]).map((s) => {
    const o = obj(s);
    return { endpoint: str(o["endpoint"]), perf: { throughput: num(o["throughputPerSec"]), objectsPerSec: num(o["objectsPerSec"]) }, ...(str(o["err"]) ? { error: str(o["err"]) } : {}) };
  });
}

/** upstream convertObjTestResults. */
export function objectOutput(r: Record<string, unknown>): Record<string, unknown> {
  const put = obj(r["PUTStats"]);
  const get = obj(r["GETStats"]);
  const perf = (s: Record<string, unknown>): Record<string, unknown> => ({ throughput: num(s["throughputPerSec"]), objectsPerSec: num(s["objectsPerSec"]), responseTime: timings(s["responseTime"]) });
  return {
    objectSize: num(r["size"]),
    threads: num(r["concurrent"]),
    PUT: { perf: perf(put), servers: statServers(put) },
    GET: { perf: { ...perf(get), ttfb: timings(get["ttfb"]) }, servers: statServers(get) },
  };
}

/** upstream convertNetTestResults. */
export function netOutput(r: Record<string, unknown>): Record<string, unknown> {
  return {
    servers: list(r["nodeResults"]).map((n) => {
      const o = obj(n);
      return { endpoint: str(o["endpoint"]), perf: { tx: num(o["tx"]), rx: num(o["rx"]) }, ...(str(o["error"]) ? { error: str(o["error"]) } : {}) };
    }),
  };
}

/** upstream convertDriveTestResults. */
export function driveOutput(rs: readonly Record<string, unknown>[]): Record<string, unknown> {
  return {
    servers: rs.map((r) => {
      const perf = list(r["drivePerf"]).map((d) => {
        const o = obj(d);
        return { path: str(o["path"]), readThroughput: num(o["readThroughput"]), writeThroughput: num(o["writeThroughput"]), ...(str(o["error"]) ? { error: str(o["error"]) } : {}) };
      });
      // madmin's DriveSpeedTestResult names its error field "string".
      const error = str(r["string"]) || str(r["error"]);
      return { endpoint: str(r["endpoint"]), ...(perf.length > 0 ? { perf } : {}), ...(error ? { error } : {}) };
    }),
  };
}
