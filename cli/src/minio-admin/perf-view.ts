import { iBytes } from "../util/humanize.js";
import { tabTable } from "./tab-table.js";

/**
 * upstream's speedtest view (cmd/speedtest-spinner.go) in its final state,
 * without colour: `Name: ✔`, a tab table, and for objects the one-line
 * summary (per-server lines with --verbose).
 */
const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** go-humanize Comma. */
const comma = (n: number): string => Math.trunc(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const cut = (s: string, max: number): string => (s.length < max ? s : `${s.slice(0, max)}...`);
const head = (name: string): string => `\n${name}: ✔\n\n`;

export function objectView(r: Record<string, unknown>, verbose: boolean): string {
  const put = obj(r["PUTStats"]);
  const get = obj(r["GETStats"]);
  const table = tabTable(["", "Throughput", "IOPS"], [
    ["PUT", `${iBytes(num(put["throughputPerSec"]))}/s`, `${comma(num(put["objectsPerSec"]))} objs/s`],
    ["GET", `${iBytes(num(get["throughputPerSec"]))}/s`, `${comma(num(get["objectsPerSec"]))} objs/s`],
  ]);
  let out = `${head("ObjectPerf")}${table}\n\nMinIO ${str(r["version"])}, ${num(r["servers"])} servers, ${num(r["disks"])} drives, ${iBytes(num(r["size"]))} objects, ${num(r["concurrent"])} threads`;
  if (verbose) {
    const lines = (stats: Record<string, unknown>): string =>
      list(stats["servers"])
        .map((s) => {
          const o = obj(s);
          return `   * ${str(o["endpoint"])}: ${iBytes(num(o["throughputPerSec"]))}/s ${comma(num(o["objectsPerSec"]))} objs/s${str(o["err"]) ? ` Err: ${str(o["err"])}` : ""}\n`;
        })
        .join("");
    out += `\n\nPUT:\n${lines(put)}GET:\n${lines(get)}`;
  }
  return `${out}\n`;
}

export function netView(r: Record<string, unknown>): string {
  const rows = list(r["nodeResults"]).map((n) => {
    const o = obj(n);
    return [cut(str(o["endpoint"]), 64), `${iBytes(num(o["rx"]))}/s`, `${iBytes(num(o["tx"]))}/s`, `Err: ${str(o["error"])}`];
  });
  rows.sort((a, b) => ((a[0] ?? "") < (b[0] ?? "") ? -1 : (a[0] ?? "") > (b[0] ?? "") ? 1 : 0));
  return `${head("NetPerf")}${tabTable(["Node", "RX", "TX", ""], rows)}\n`;
}

export function driveView(rs: readonly Record<string, unknown>[]): string {
  const rows: string[][] = [];
  for (const r of rs) {
    for (const d of list(r["drivePerf"])) {
      const o = obj(d);
      const node = cut(str(r["endpoint"]), 64);
      rows.push(str(o["error"]) ? [node, str(o["path"]), "✗", "✗", `Err: ${str(o["error"])}`] : [node, str(o["path"]), `${iBytes(num(o["readThroughput"]))}/s`, `${iBytes(num(o["writeThroughput"]))}/s`, ""]);
    }
  }
  return `${head("DrivePerf")}${tabTable(["Node", "Path", "Read", "Write", ""], rows)}\n`;
}

/** upstream's view of the site replication test: per-second rates over each node's whole transfer time. */
export function siteView(r: Record<string, unknown>): string {
  const nodes = list(r["nodeResults"]).map(obj);
  const rows = nodes.map((o) => {
    const node = cut(str(o["endpoint"]), 64);
    if (str(o["error"])) return [node, "✗ ", "✗ ", `Err: ${str(o["error"])}`];
    let problem = "";
    // Go: uint64(d.Seconds()), whole seconds; a rate over less than one is no rate.
    const rate = (bytes: number, ns: number, what: string): string => {
      const secs = Math.trunc(ns / 1e9);
      if (secs === 0) {
        problem += `- ${what}TotalDuration are zero${what === "RX" ? " " : ""}`;
        return "✗ ";
      }
      return `${iBytes(Math.trunc(bytes / secs))}/s`;
    };
    const rx = rate(num(o["rx"]), num(o["rxTotalDuration"]), "RX");
    const tx = rate(num(o["tx"]), num(o["txTotalDuration"]), "TX");
    return [node, rx, tx, problem];
  });
  if (rows.length === 0) rows.push(["...", "-- MiB", "-- MiB", ""]);
  rows.sort((a, b) => ((a[0] ?? "") < (b[0] ?? "") ? -1 : (a[0] ?? "") > (b[0] ?? "") ? 1 : 0));
  return `${head("SiteReplication")}${tabTable(["Endpoint", "RX", "TX", ""], rows)}\n`;
}

/** upstream's view of the client test: the upload rate from this client to the server. */
export function clientView(r: { endpoint: string; error: string; BytesSend: number; TimeSpent: number }): string {
  const tx = r.TimeSpent > 0 ? Math.trunc(r.BytesSend / (r.TimeSpent / 1e9)) : 0;
  const row = tx === 0 ? ["...", "-- KiB/s", ""] : [r.endpoint, `${iBytes(tx)}/s`, r.error];
  return `${head("Client")}${tabTable(["Endpoint", "Tx", ""], [row])}\n`;
}
