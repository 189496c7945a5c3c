import { iBytes } from "../util/humanize.js";
import { goDuration, goRound } from "./go-format.js";
import { goLen, goPad, pad2, statusText } from "./go-http.js";

/**
 * The trace records of MinIO's trace stream (madmin `TraceInfo`) and the two
 * ways upstream mc prints them (cmd/admin-trace.go): short (one line per
 * call) and verbose, each as text or JSON. Pure.
 */
const typeNames: readonly [number, string][] = [
  [1, "OS"], [2, "Storage"], [4, "S3"], [8, "Internal"], [16, "Scanner"], [32, "Decommission"], [64, "Healing"],
  [128, "BatchReplication"], [256, "Rebalance"], [512, "ReplicationResync"], [1024, "Bootstrap"],
];
export const traceS3 = 4;
export const traceInternal = 8;
export const traceBootstrap = 1024;

/** madmin `TraceType.String()`. */
export function traceTypeName(t: number): string {
  return typeNames.find(([v]) => v === t)?.[1] ?? (t === 2047 ? "All" : `TraceType(${t})`);
}

type Headers = Record<string, string[]>;

export interface TraceHttp {
  request: { time: string; proto: string; method: string; path?: string; rawquery?: string; headers?: Headers; body?: string; client: string };
  response: { time: string; headers?: Headers; body?: string; statuscode?: number };
  stats: { inputbytes: number; outputbytes: number; latency?: number; timetofirstbyte: number };
}

export interface TraceInfo {
  type: number;
  nodename: string;
  funcname: string;
  time: string;
  path: string;
  dur: number;
  msg?: string;
  error?: string;
  http?: TraceHttp;
  healResult?: unknown;
  custom?: Record<string, string>;
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const num = (v: unknown): number => (typeof v === "number" ? v : 0);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** A record as madmin's ServiceTrace hands it on: records of servers before July 2022 converted the way it converts them. */
export function toTraceInfo(raw: unknown): TraceInfo {
  const r = obj(raw);
  const t: TraceInfo = { type: num(r["type"]), nodename: str(r["nodename"]), funcname: str(r["funcname"]), time: str(r["time"]), path: str(r["path"]), dur: num(r["dur"]) };
  if (str(r["msg"])) t.msg = str(r["msg"]);
  if (str(r["error"])) t.error = str(r["error"]);
  if (r["http"] !== undefined && r["http"] !== null) t.http = r["http"] as TraceHttp;
  if (r["healResult"] !== undefined && r["healResult"] !== null) t.healResult = r["healResult"];
  if (r["custom"] !== undefined && r["custom"] !== null) t.custom = r["custom"] as Record<string, string>;
  if (t.type === 0) {
    t.type = t.funcname.startsWith("s3.") ? traceS3 : traceInternal;
    const req = r["request"] as TraceHttp["request"] | undefined;
    const res = r["response"] as TraceHttp["response"] | undefined;
    const stats = r["stats"] as TraceHttp["stats"] | undefined;
    t.http = { request: req ?? { time: "0001-01-01T00:00:00Z", proto: "", method: "", client: "" }, response: res ?? { time: "0001-01-01T00:00:00Z" }, stats: stats ?? { inputbytes: 0, outputbytes: 0, timetofirstbyte: 0 } };
    if (req?.path !== undefined) t.path = req.path;
    if (stats !== undefined) t.dur = num(stats.latency);
  }
  const legacy = (key: string, type: number): void => {
    const s = obj(r[key]);
    if (t.type === type && r[key] !== undefined && r[key] !== null) {
      t.path = str(s["path"]);
      t.dur = num(s["duration"]);
    }
  };
  legacy("osStats", 1);
  legacy("storageStats", 2);
  return t;
}

/** Go `time.Local().Format("2006-01-02T15:04:05.000")`. */
export function traceTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number, w = 2): string => String(n).padStart(w, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** A []byte field of the record: base64 in Go's JSON, shown as its text. */
const bodyText = (b: string | undefined): string => (b ? Buffer.from(b, "base64").toString("utf8") : "");
const sortedEntries = <T>(m: Record<string, T> | undefined): [string, T][] => Object.entries(m ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const isHttp = (t: TraceInfo): boolean => t.type === traceS3 || t.type === traceInternal;

export function shortTraceJson(t: TraceInfo): Record<string, unknown> {
  const h = isHttp(t) ? t.http : undefined;
  return {
    status: "success",
    host: t.nodename,
    time: t.time,
    client: h?.request.client ?? "",
    ...(h ? { callStats: { rx: h.stats.inputbytes, tx: h.stats.outputbytes, duration: t.dur, timeToFirstByte: h.stats.timetofirstbyte } } : {}),
    duration: t.dur,
    timeToFirstByte: 0,
    api: t.funcname,
    path: t.path,
    query: h?.request.rawquery ?? "",
    statusCode: h?.response.statuscode ?? 0,
    statusMsg: h ? statusText(h.response.statuscode ?? 0) : (t.msg ?? ""),
    type: traceTypeName(t.type),
    error: t.error ?? "",
    extra: t.custom ?? null,
  };
}

export function shortTraceText(t: TraceInfo): string {
  const head = `${traceTime(t.time)} `;
  const kind = traceTypeName(t.type).toUpperCase();
  if (t.type === traceBootstrap) return `${head}[${kind}] ${t.funcname} ${t.nodename} ${t.msg ?? ""}`;
  if (!isHttp(t) || t.http === undefined) {
    const d = pad2(goDuration(t.dur));
    return t.error ? `${head}[${kind}] ${t.funcname} ${t.nodename} ${t.path} err='${t.error}' ${d}` : `${head}[${kind}] ${t.funcname} ${t.nodename} ${t.path} ${d}`;
  }
  const h = t.http;
  const code = h.response.statuscode ?? 0;
  let b = `${head}[${code} ${statusText(code)}] ${t.funcname} ${t.nodename}${t.path}`;
  if (h.request.rawquery) b += `?${h.request.rawquery} `;
  b += ` ${h.request.client} `;
  b += goPad(15 - goLen(h.request.client));
  const dur = pad2(goDuration(goRound(t.dur, 1000)));
  b += ` ${dur}`;
  b += goPad(12 - goLen(dur));
  b += " ⇣ ";
  const ttfb = pad2(goDuration(h.stats.timetofirstbyte));
  b += ` ${ttfb}`;
  b += goPad(10 - goLen(ttfb));
  b += ` ↑ ${iBytes(h.stats.inputbytes)} ↓ ${iBytes(h.stats.outputbytes)}`;
  return b;
}

/** upstream `verboseTrace` (no `status` field: upstream prints none). */
export function verboseTraceJson(t: TraceInfo): Record<string, unknown> {
  const out: Record<string, unknown> = { type: traceTypeName(t.type), host: t.nodename, api: t.funcname, time: t.time, duration: t.dur, path: t.path };
  if (t.error) out["error"] = t.error;
  if (t.msg) out["message"] = t.msg;
  const h = t.http;
  if (h) {
    const joined = (m: Headers | undefined): Record<string, string> => Object.fromEntries(sortedEntries(m).map(([k, v]) => [k, v.join(" ")]));
    const rq = h.request;
    const rs = h.response;
    const rqHeaders = joined(rq.headers);
    const rsHeaders = joined(rs.headers);
    out["request"] = { time: rq.time, proto: rq.proto, method: rq.method, ...(rq.path ? { path: rq.path } : {}), ...(rq.rawquery ? { rawQuery: rq.rawquery } : {}), ...(Object.keys(rqHeaders).length ? { headers: rqHeaders } : {}), ...(bodyText(rq.body) ? { body: bodyText(rq.body) } : {}) };
    out["response"] = { time: rs.time, ...(Object.keys(rsHeaders).length ? { headers: rsHeaders } : {}), ...(bodyText(rs.body) ? { body: bodyText(rs.body) } : {}), ...(rs.statuscode ? { statusCode: rs.statuscode } : {}) };
    out["callStats"] = { rx: h.stats.inputbytes, tx: h.stats.outputbytes, duration: t.dur, timeToFirstByte: h.stats.timetofirstbyte };
  }
  if (t.healResult !== undefined) out["healResult"] = t.healResult;
  if (t.custom && Object.keys(t.custom).length > 0) out["extra"] = t.custom;
  return out;
}

export function verboseTraceText(t: TraceInfo): string {
  const node = t.nodename ? `${t.nodename} ` : "";
  const extra = sortedEntries(t.custom).map(([k, v]) => ` ${k}=${v}`).join("");
  const kind = traceTypeName(t.type).toUpperCase();
  if (isHttp(t)) {
    if (t.http === undefined) return "";
  } else if (t.type === traceBootstrap) {
    return `${node} [${kind} ${t.funcname}] [${traceTime(t.time)}] ${t.msg ?? ""}${extra}`;
  } else {
    return t.error ? `${node} [${kind} ${t.funcname}] [${traceTime(t.time)}] ${t.path}${extra} err='${t.error}' ${goDuration(t.dur)}` : `${node} [${kind} ${t.funcname}] [${traceTime(t.time)}] ${t.path}${extra} ${goDuration(t.dur)}`;
  }
  const { request: ri, response: rs, stats } = t.http;
  const headers = { ...(ri.headers ?? {}) };
  const host = (headers["Host"] ?? []).join("");
  delete headers["Host"];
  let b = `${node}[REQUEST ${t.funcname}] [${traceTime(ri.time)}] [Client IP: ${ri.client}]\n`;
  b += `${node}${ri.method} ${ri.path ?? ""}${ri.rawquery ? `?${ri.rawquery}` : ""}\n`;
  b += `${node}Proto: ${ri.proto}\n`;
  b += `${node}Host: ${host}\n`;
  for (const [k, v] of sortedEntries(headers)) b += `${node}${k}: ${v.join("")}\n`;
  b += `${node}${bodyText(ri.body)}\n`;
  b += `${node}[RESPONSE] [${traceTime(rs.time)}] `;
  b += `[ Duration ${pad2(goDuration(goRound(t.dur, 1000)))} TTFB ${pad2(goDuration(stats.timetofirstbyte))} ↑ ${iBytes(stats.inputbytes)}  ↓ ${iBytes(stats.outputbytes)} ]\n`;
  const code = rs.statuscode ?? 0;
  b += `${node}${code} ${statusText(code)}\n`;
  for (const [k, v] of sortedEntries(rs.headers)) b += `${node}${k}: ${v.join(",")}\n`;
  if (extra.length > 0) b += `${node}${extra}\n`;
  b += `${node}${bodyText(rs.body)}\n`;
  b += node;
  return b;
}
