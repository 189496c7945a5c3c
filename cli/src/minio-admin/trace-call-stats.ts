import { iBytes } from "../util/humanize.js";
import { goDuration, goRound } from "./go-format.js";
import { plainTable } from "./tab-table.js";
import { traceBootstrap, type TraceInfo } from "./trace-format.js";

/**
 * upstream's per-call statistics of a trace (cmd/admin-trace.go `statTrace`,
 * cmd/admin-trace-stats-ui.go `traceStatsUI.View`): counts, times, sizes and
 * errors per API name over the span the traces cover (first call's end to
 * the latest end). Times are kept in nanoseconds as Go keeps them. Pure.
 */
interface StatItem {
  name: string;
  count: number;
  duration: number;
  errors: number;
  callStatsCount: number;
  rx: number;
  tx: number;
  ttfb: number;
  maxTTFB: number;
  maxDur: number;
  minDur: number;
  size: number;
}

/** A trace record's fields that count (TraceInfo, with madmin v3's `bytes`). */
export type StatTrace = Pick<TraceInfo, "type" | "funcname" | "time" | "dur" | "error" | "http"> & { readonly bytes?: number };

/** RFC 3339 with up to nine fraction digits → nanoseconds since the epoch. */
export function timeNs(iso: string): bigint {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(.*)$/.exec(iso);
  const ms = Date.parse(m ? `${m[1] ?? ""}${m[3] ?? ""}` : iso);
  if (!Number.isFinite(ms)) return 0n;
  return BigInt(ms) * 1_000_000n + BigInt((m?.[2] ?? "").padEnd(9, "0") || "0");
}

/** Go's RFC3339Nano of a UTC instant. */
function rfc3339Nano(ns: bigint): string {
  if (ns === 0n) return "0001-01-01T00:00:00Z";
  const base = new Date(Number(ns / 1_000_000_000n) * 1000).toISOString().slice(0, 19);
  const frac = (ns % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "");
  return `${base}${frac ? `.${frac}` : ""}Z`;
}

/** upstream `roundDur`: whole seconds past a minute, ms past a second, 0.1 ms past a ms, else µs. */
function roundDur(ns: number): string {
  const to = ns > 6e10 ? 1e9 : ns > 1e9 ? 1e6 : ns > 1e6 ? 1e5 : 1e3;
  return goDuration(goRound(ns, to));
}

/** upstream `ibytesShort`: humanize.IBytes without `iB` and spaces (`1.5K`, `512B`). */
const ibytesShort = (n: number): string => iBytes(n).replace(/iB$/, "").replace(/ /g, "");
/** Go's uint64(float64): an infinite or huge rate (a span of zero) becomes 2^63 on amd64. */
const u64 = (x: number): number => (Number.isFinite(x) && x < 2 ** 63 ? Math.max(0, Math.trunc(x)) : 2 ** 63);
/** Go's `%0.1f` of a float64, +Inf included. */
const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : x > 0 ? "+Inf" : "NaN");

export function createCallStats() {
  const calls = new Map<string, StatItem>();
  let oldest = 0n;
  let latest = 0n;
  return {
    add(t: StatTrace): void {
      if (t.type !== traceBootstrap) {
        // Bootstrap records say nothing of when calls ran.
        const ended = timeNs(t.time) + BigInt(Math.trunc(t.dur));
        if (oldest === 0n) oldest = ended;
        if (ended > latest) latest = ended;
      }
      const got = calls.get(t.funcname) ?? { name: t.funcname, count: 0, duration: 0, errors: 0, callStatsCount: 0, rx: 0, tx: 0, ttfb: 0, maxTTFB: 0, maxDur: 0, minDur: 0, size: 0 };
      if (got.maxDur < t.dur) got.maxDur = t.dur;
      if (got.minDur <= 0 || got.minDur > t.dur) got.minDur = t.dur;
      got.count++;
      got.duration += t.dur;
      if (t.error) got.errors++;
      got.size += t.bytes ?? 0;
      if (t.http !== undefined) {
        got.callStatsCount++;
        got.rx += t.http.stats.inputbytes;
        got.tx += t.http.stats.outputbytes;
        got.ttfb += t.http.stats.timetofirstbyte;
        if (got.maxTTFB < t.http.stats.timetofirstbyte) got.maxTTFB = t.http.stats.timetofirstbyte;
      }
      calls.set(t.funcname, got);
    },
    /** upstream's view; `allFlag` (trace -a) leaves the RX/TX rate lines out, `maxEntries` keeps the busiest calls. */
    view(allFlag: boolean, maxEntries: number): string {
      const span = Number(latest - oldest);
      const minutes = span / 6e10;
      let out = `Duration: ${goDuration(goRound(span, 1e9))}\n`;
      let entries = [...calls.values()];
      if (entries.length === 0) return `${out}(waiting for data)`;
      const total = entries.reduce((a, e) => ({ n: a.n + e.count, rx: a.rx + e.rx, tx: a.tx + e.tx }), { n: 0, rx: 0, tx: 0 });
      entries.sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      // Only the busiest shown, the last row marked (upstream's view scrolled to the top).
      let endTrunc = false;
      if (maxEntries > 0 && entries.length > maxEntries) {
        entries = entries.slice(0, maxEntries);
        endTrunc = true;
      }
      const hasTTFB = entries.some((e) => e.ttfb > 0);
      if (!allFlag) {
        if (total.rx > 0) out += `RX Rate:↑ ${iBytes(u64(total.rx / minutes))}/m\n`;
        if (total.tx > 0) out += `TX Rate:↓ ${iBytes(u64(total.tx / minutes))}/m\n`;
      }
      out += `RPM    :  ${f1(total.n / minutes)}\n-------------\n`;
      const rows: string[][] = [["Call", "Count", "RPM", "Avg Time", "Min Time", "Max Time", ...(hasTTFB ? ["Avg TTFB", "Max TTFB"] : []), "Avg Size", "Rate /min", "Errors"]];
      entries.forEach((v, i) => {
        let size = "-";
        let rate = "-";
        if (v.size > 0) [size, rate] = [ibytesShort(Math.trunc(v.size / v.count)), ibytesShort(u64(v.size / minutes))];
        if (v.callStatsCount > 0) {
          const s: string[] = [];
          const r: string[] = [];
          if (v.rx > 0) {
            s.push(`↑${ibytesShort(Math.trunc(v.rx / v.callStatsCount))}`);
            r.push(`↑${ibytesShort(u64(v.rx / minutes))}`);
          }
          if (v.tx > 0) {
            s.push(`↓${ibytesShort(Math.trunc(v.tx / v.callStatsCount))}`);
            r.push(`↓${ibytesShort(u64(v.tx / minutes))}`);
          }
          if (s.length + r.length > 0) size = s.join(" ");
          if (r.length > 0) rate = r.join(" ");
        }
        const ttfb = hasTTFB ? (v.ttfb > 0 ? [roundDur(Math.trunc(v.ttfb / v.count)), roundDur(v.maxTTFB)] : ["-", "-"]) : [];
        rows.push([
          `${endTrunc && i === entries.length - 1 ? "↓ " : ""}${v.name}`,
          `${v.count} (${f1((v.count / total.n) * 100)}%)`,
          f1(v.count / minutes),
          roundDur(Math.trunc(v.duration / v.count)),
          roundDur(v.minDur),
          roundDur(v.maxDur),
          ...ttfb,
          size,
          rate,
          String(v.errors),
        ]);
      });
      return `${out}${plainTable(rows, "  ")}\n`;
    },
    /** upstream `statTrace.JSON()`: the calls by name, with the span's ends. */
    json(): Record<string, unknown> {
      const byName = [...calls.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return {
        calls: Object.fromEntries(
          byName.map((v) => [
            v.name,
            {
              Name: v.name,
              count: v.count,
              duration: v.duration,
              ...(v.errors ? { errors: v.errors } : {}),
              ...(v.callStatsCount ? { callStatsCount: v.callStatsCount } : {}),
              callStats: { rx: v.rx, tx: v.tx, duration: 0, timeToFirstByte: 0 },
              ...(v.ttfb ? { ttfb: v.ttfb } : {}),
              ...(v.maxTTFB ? { maxTTFB: v.maxTTFB } : {}),
              maxDuration: v.maxDur,
              minDuration: v.minDur,
              size: v.size,
            },
          ]),
        ),
        Oldest: rfc3339Nano(oldest),
        Latest: rfc3339Nano(latest),
      };
    },
  };
}
