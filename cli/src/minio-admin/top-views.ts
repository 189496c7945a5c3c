import { iBytes } from "../util/humanize.js";
import { tabTable } from "./tab-table.js";

/**
 * The tables of upstream's `support top drive|net|rpc` views (no colour,
 * no key help line), from successive metrics samples: rates are the change
 * between the last two samples of a drive or host.
 */
const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

interface DiskInfo {
  readonly endpoint: string;
  readonly total: number;
  readonly used: number;
  readonly pool: number;
  readonly healing: boolean;
  readonly scanning: boolean;
}

/** The drives of an admin info answer. */
export function drivesOf(info: Record<string, unknown>): Map<string, DiskInfo> {
  const out = new Map<string, DiskInfo>();
  for (const s of Array.isArray(info["servers"]) ? info["servers"] : []) {
    for (const d of Array.isArray(obj(s)["drives"]) ? (obj(s)["drives"] as unknown[]) : []) {
      const o = obj(d);
      const endpoint = str(o["endpoint"]);
      out.set(endpoint, { endpoint, total: num(o["totalspace"]), used: num(o["usedspace"]), pool: num(o["pool_index"]), healing: o["healing"] === true, scanning: o["scanning"] === true });
    }
  }
  return out;
}

/** upstream generateDriveStat over one-second samples; madmin v2's misspelt keys read too. */
function driveRow(disk: DiskInfo, curr: Record<string, unknown>, prev: Record<string, unknown>): string[] {
  const f = (o: Record<string, unknown>, ...keys: string[]): number => keys.reduce((n, k) => n || num(o[k]), 0);
  const d = (...keys: string[]): number => f(curr, ...keys) - f(prev, ...keys);
  const ios = d("read_ios") + d("write_ios") + d("discard_ios");
  const ticks = d("read_ticks") + d("write_ticks") + d("discard_ticks");
  const mbs = (...keys: string[]): string => `${(d(...keys) / 2048).toFixed(2)} MiB/s`;
  let name = disk.endpoint;
  if (disk.healing) name += "!";
  if (disk.scanning) name += "*";
  if (disk.total === 0) name += "✗";
  return [
    name,
    `${disk.total === 0 ? 0 : Math.floor((100 * disk.used) / disk.total)}%`,
    String(ios > 0 ? ios : 0),
    mbs("read_sectors"),
    mbs("write_sectors", "wrte_sectors"),
    mbs("discard_sectors", "discard_secotrs"),
    `${(ios > 0 ? ticks / ios : 0).toFixed(1)} ms`,
    `${((100 * d("total_ticks")) / 1000).toFixed(1)}%`,
  ];
}

export function createDriveView(disks: Map<string, DiskInfo>, count: number) {
  const prev = new Map<string, Record<string, unknown>>();
  const curr = new Map<string, Record<string, unknown>>();
  return {
    add(m: Record<string, unknown>): void {
      for (const [name, metric] of Object.entries(obj(m["by_disk"]))) {
        prev.set(name, curr.get(name) ?? {});
        curr.set(name, obj(obj(metric)["iostats"]));
      }
    },
    view(): { text: string; json: unknown } {
      const shown = [...curr.keys()].filter((n) => disks.get(n)?.pool === 0).sort().slice(0, count);
      const rows = shown.map((n) => driveRow(disks.get(n) as DiskInfo, curr.get(n) ?? {}, prev.get(n) ?? {}));
      const json = { status: "success", drives: rows.map((r) => ({ drive: r[0], used: r[1], tps: Number(r[2]), read: r[3], write: r[4], discard: r[5], await: r[6], util: r[7] })) };
      return { text: tabTable(["Drive", "used", "tps", "read", "write", "discard", "await", "util"], rows, "center"), json };
    },
  };
}

/** Per host and interface: receive and transmit rates between the last two samples (procfs NetDevLine counters). */
export function createNetView() {
  const last = new Map<string, { at: number; rx: number; tx: number; iface: string; rxRate: number; txRate: number; error: string }>();
  return {
    add(m: Record<string, unknown>): void {
      for (const [host, metrics] of Object.entries(obj(m["by_host"]))) {
        const net = obj(obj(metrics)["net"]);
        if (Object.keys(net).length === 0) continue;
        const stats = obj(net["netstats"]);
        const at = Date.parse(str(net["collected"])) || Date.now();
        const rx = num(stats["RxBytes"]) || num(stats["rx_bytes"]);
        const tx = num(stats["TxBytes"]) || num(stats["tx_bytes"]);
        const before = last.get(host);
        const secs = before ? (at - before.at) / 1000 : 0;
        last.set(host, { at, rx, tx, iface: str(net["interfaceName"]), rxRate: secs > 0 ? (rx - (before?.rx ?? 0)) / secs : 0, txRate: secs > 0 ? (tx - (before?.tx ?? 0)) / secs : 0, error: "" });
      }
      const errors = Array.isArray(m["errors"]) ? (m["errors"] as unknown[]) : [];
      const hosts = Array.isArray(m["hosts"]) ? (m["hosts"] as unknown[]) : [];
      if (errors.length > 0 && hosts.length > 0) {
        const host = str(hosts[0]);
        const was = last.get(host);
        last.set(host, { at: was?.at ?? 0, rx: was?.rx ?? 0, tx: was?.tx ?? 0, iface: was?.iface ?? "", rxRate: 0, txRate: 0, error: str(errors[0]) });
      }
    },
    view(): { text: string; json: unknown } {
      const hosts = [...last.keys()].sort();
      const rows = hosts.map((h) => {
        const s = last.get(h);
        return [h, s?.iface ?? "", `${iBytes(Math.max(0, Math.round(s?.rxRate ?? 0)))}/s`, `${iBytes(Math.max(0, Math.round(s?.txRate ?? 0)))}/s`, s?.error ? `Err: ${s.error}` : ""];
      });
      const json = { status: "success", hosts: hosts.map((h) => ({ host: h, interface: last.get(h)?.iface ?? "", rxPerSec: Math.round(last.get(h)?.rxRate ?? 0), txPerSec: Math.round(last.get(h)?.txRate ?? 0), ...(last.get(h)?.error ? { error: last.get(h)?.error } : {}) })) };
      return { text: tabTable(["Server", "Interface", "Receive", "Transmit", ""], rows, "center"), json };
    },
  };
}

/** upstream's top rpc table: the connections to each destination (sorted by host). */
export function rpcView(m: Record<string, unknown>): string {
  const rpc = obj(obj(m["aggregated"])["rpc"]);
  const dest = obj(rpc["byDestination"]);
  const header = ["SERVER", "CONCTD", "PING", "PONG", "OUT.Q", "RECONNS", "STR.IN", "STR.OUT", "MSG.IN", "MSG.OUT"];
  if (Object.keys(dest).length === 0) return `${tabTable(header, [], "center")}\n\n(no rpc connections)`;
  const rows = Object.entries(dest)
    .map(([k, v]) => [k.replace(/^https?:\/\//, ""), obj(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([host, v]) => {
      const pongAgo = Math.floor((Date.parse(str(v["collectedAt"])) - Date.parse(str(v["lastPongTime"]))) / 1000);
      return [`To ${host}`, String(num(v["connected"])), `${num(v["lastPingMS"]).toFixed(1)}ms`, `${Number.isFinite(pongAgo) ? pongAgo : 0}s ago`, String(num(v["outQueue"])), String(num(v["reconnectCount"])), `->${num(v["incomingStreams"])}`, `${num(v["outgoingStreams"])}->`, String(num(v["incomingMessages"])), String(num(v["outgoingMessages"]))];
    });
  return `${tabTable(header, rows, "center")}\n\nSHOWING traffic TO hosts sorted by Host.`;
}
