import { randomBytes } from "node:crypto";
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
  /** madmin v3 `NoClear` (hidden --noclear): the test objects stay in the bucket. */
  readonly noClear?: boolean;
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
  if (o.noClear === true) query["noclear"] = "true";
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

/** madmin v3 MinClientPerfTimeout, MaxClientPerfTimeout: the upload runs between 5 and 30 seconds. */
const clientPerfMs = (ms: number): number => Math.min(30_000, Math.max(5_000, ms));

/** madmin v3 `ClientPerfResult`. */
export interface ClientPerfResult {
  readonly endpoint: string;
  readonly error: string;
  readonly BytesSend: number;
  readonly TimeSpent: number;
}

/**
 * madmin v3 `ClientPerf` (v2.0.7 has none): POST /speedtest/client/devnull
 * with an endless body (signed as empty) for the duration, its outcome
 * ignored as madmin ignores it; then POST …/devnull/extratime, whose `dur`
 * (the server's own overhead, ns) is taken off the time spent uploading.
 */
export async function clientPerf(client: AdminClient, durationMs: number, signal: AbortSignal): Promise<ClientPerfResult> {
  const chunk = randomBytes(128 * 1024);
  let sent = 0;
  const started = process.hrtime.bigint();
  await client
    .request({ method: "POST", path: "/speedtest/client/devnull", endless: { chunk, sent: (n) => (sent += n) }, signal: AbortSignal.timeout(clientPerfMs(durationMs)) })
    .catch((err: unknown) => {
      if (signal.aborted) throw err;
    });
  const spentNs = Number(process.hrtime.bigint() - started);
  const extra = obj(await client.json<unknown>({ method: "POST", path: "/speedtest/client/devnull/extratime" }));
  const spent = spentNs - Math.max(0, num(extra["dur"]));
  if (spent <= 0) throw new Error("unexpected spent time duration, mostly NTP errors on the server");
  const url = new URL(client.alias.url);
  return { endpoint: `${url.protocol}//${url.host}`, error: "", BytesSend: sent, TimeSpent: spent };
}

/** upstream convertClientResult. */
export function clientOutput(r: ClientPerfResult): Record<string, unknown> {
  return { bytesSent: r.BytesSend, timeSpent: r.TimeSpent, endpoint: r.endpoint, error: r.error };
}

/** madmin v3 `SiteReplicationPerf` (v2.0.7 has none): POST /speedtest/site?duration; one JSON answer. */
export async function sitePerf(client: AdminClient, durationMs: number): Promise<Record<string, unknown>> {
  return obj(await client.json<unknown>({ method: "POST", path: "/speedtest/site", query: { duration: goDurationString(durationMs) } }));
}

/** upstream convertSiteReplicationTestResults. */
export function siteOutput(r: Record<string, unknown>): Record<string, unknown> {
  return {
    servers: list(r["nodeResults"]).map((n) => {
      const o = obj(n);
      const perf = { tx: num(o["tx"]), txTotalDuration: num(o["txTotalDuration"]), rx: num(o["rx"]), rxTotalDuration: num(o["rxTotalDuration"]), totalConn: num(o["totalConn"]) };
      return { endpoint: str(o["endpoint"]), perf, ...(str(o["error"]) ? { error: str(o["error"]) } : {}) };
    }),
  };
}
