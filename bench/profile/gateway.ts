// Issue 21, attribution: where the gateway's cached answer spends more CPU
// (or, since its raw lane, less: negative figures) than a bare node:http
// server sending the same bytes. Both run pinned to
// core 0 under `perf record` (with --perf-basic-prof, so JIT frames have
// names), loaded at once by one wrk each on core 1, as in bench/gateway.
// perf sees what a --cpu-prof cannot: the kernel, V8's runtime and GC, and
// libuv. Prints each side's samples per request and, per category and for
// the top symbols, the gateway's extra cost in % of the bare server's
// per-request cost (one run: repeat it before trusting a line under 0.3 %).
// `node --import tsx bench/profile/gateway.ts` (needs perf: linux-perf)
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../tests/harness/free-port.js";
import { startProcess, type Started } from "../../tests/harness/processes.js";
import { waitFor } from "../../tests/harness/wait-for.js";
import type { Rule } from "./cpu-table.js";
import { bareHeadersOf } from "../fixtures/bare-headers.js";

const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const path = "/api/releases/client/latest";
const gatewayBin = fileURLToPath(new URL("../../app/bin/gateway.js", import.meta.url));
const bareServer = fileURLToPath(new URL("../fixtures/bare-server.ts", import.meta.url));

const rules: readonly Rule[] = [
  // The gateway's own JavaScript, and on the other side the bare server's handler (bench/fixtures).
  ["our JavaScript (gateway; bare: its handler)", /JS:.*file:\/\//],
  ["garbage collection", /Scaveng|Heap::|MarkCompact|Sweep|Evacuat|ConcurrentMarking|RecordWrite/],
  ["kernel: network and wake-ups", /^\[k\] .*(tcp|sock|skb|inet|ip_|net|napi|softirq|spin_unlock|wake|sched|task_switch)/],
  ["kernel: other", /^\[k\]/],
  ["node http and streams (JS)", /JS:.*node:/],
  ["V8 builtins, ICs and regexps", /Builtins_|RegExp:/],
  ["node and V8 C++, libuv, llhttp", /./],
];

/** Requests per second of one wrk run, pinned to core 1. */
function wrk(url: string): Promise<number> {
  const child = spawn("taskset", ["-c", "1", "wrk", "-t1", "-c32", `-d${seconds + 2}s`, url]);
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) =>
    child.once("close", () => {
      const m = /Requests\/sec:\s+([\d.]+)/.exec(out);
      if (m?.[1]) resolve(Number(m[1]));
      else reject(new Error(`wrk failed: ${out}`));
    }),
  );
}

/** `perf record` of `pid` for `seconds`, then its samples per symbol (JIT, native and kernel). */
async function record(pid: number, file: string): Promise<Map<string, number>> {
  const perf = spawn("perf", ["record", "-F", "4999", "-o", file, "-p", String(pid), "--", "sleep", String(seconds)], { stdio: "ignore" });
  await new Promise((resolve) => perf.once("close", resolve));
  const report = spawnSync("perf", ["report", "-i", file, "--no-children", "--sort", "sym", "-F", "sample,sym", "--stdio"], { encoding: "utf8", maxBuffer: 64 << 20 });
  const out = new Map<string, number>();
  for (const line of report.stdout.split("\n")) {
    const m = /^\s*(\d+)\s+(\[[.k]\])\s+(.*?)\s*$/.exec(line);
    if (m?.[1] && m[2] && m[3]) out.set(`${m[2]} ${m[3]}`, (out.get(`${m[2]} ${m[3]}`) ?? 0) + Number(m[1]));
  }
  return out;
}

const categoryOf = (symbol: string): string => rules.find(([, re]) => re.test(symbol))?.[0] ?? "other";

function printDiff(gateway: Map<string, number>, gatewayRate: number, bare: Map<string, number>, bareRate: number): void {
  const total = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
  // Samples per request, each in % of the bare server's whole per-request cost.
  const unit = total(bare) / bareRate / 100;
  const perRequest = (m: Map<string, number>, rate: number, k: string): number => (m.get(k) ?? 0) / rate / unit;
  const g = total(gateway) / gatewayRate / unit;
  process.stdout.write(`per request, in % of the bare server's: gateway ${g.toFixed(1)} %, so the gateway is ${(100 / g).toFixed(2)}x the bare server's rate per CPU\n`);
  const byCategory = new Map<string, [number, number]>();
  const symbols = new Set([...gateway.keys(), ...bare.keys()]);
  for (const k of symbols) {
    const c = byCategory.get(categoryOf(k)) ?? [0, 0];
    byCategory.set(categoryOf(k), [c[0] + perRequest(gateway, gatewayRate, k), c[1] + perRequest(bare, bareRate, k)]);
  }
  const row = (name: string, gw: number, b: number): string => `  ${(gw - b).toFixed(2).padStart(6)} ${gw.toFixed(2).padStart(7)} ${b.toFixed(2).padStart(7)}  ${name.slice(0, 100)}\n`;
  process.stdout.write("extra     gateway   bare  category\n");
  for (const [name, [gw, b]] of [...byCategory].sort((x, y) => y[1][0] - y[1][1] - (x[1][0] - x[1][1]))) process.stdout.write(row(name, gw, b));
  process.stdout.write("extra     gateway   bare  symbol (the 25 largest differences)\n");
  const diffs = [...symbols].map((k) => [k, perRequest(gateway, gatewayRate, k), perRequest(bare, bareRate, k)] as const);
  for (const [k, gw, b] of diffs.sort((x, y) => Math.abs(y[1] - y[2]) - Math.abs(x[1] - x[2])).slice(0, 25)) process.stdout.write(row(k, gw, b));
}

// A closed stdout (`| head`) must not end the harness before its cleanup below: the servers and perf's maps stay otherwise.
process.stdout.on("error", () => undefined);
const root = await mkdtemp(join(tmpdir(), "profile-gateway-"));
const procs: Started[] = [];
try {
  const gwPort = await freePort();
  const gateway = startProcess("taskset", ["-c", "0", process.execPath, "--perf-basic-prof", gatewayBin, "--listen", `127.0.0.1:${gwPort}`, "--data-dir", join(root, "data"), "--kms-listen", "off"], { env: { ...process.env, LOG_LEVEL: "warn" } });
  procs.push(gateway);
  const gw = `http://127.0.0.1:${gwPort}`;
  await waitFor(() => fetch(`${gw}/healthz`).then((r) => r.ok), { what: `gateway: ${gateway.output()}`, timeoutMs: 60000 });
  const first = await fetch(`${gw}${path}`, { headers: { "accept-encoding": "identity" } });
  const body = Buffer.from(await first.arrayBuffer());
  const sameHeaders = bareHeadersOf(first);
  await writeFile(join(root, "body"), body);
  const barePort = await freePort();
  const bare = startProcess("taskset", ["-c", "0", process.execPath, "--perf-basic-prof", "--import", "tsx", bareServer, join(root, "body"), String(barePort), JSON.stringify(sameHeaders)]);
  procs.push(bare);
  await waitFor(() => bare.output().includes("ready"), { what: "bare node server", timeoutMs: 15000 });
  const urls = [`${gw}${path}`, `http://127.0.0.1:${barePort}${path}`] as const;
  // Warm-up, then the measured run: perf starts a second into the load and stops a second before it ends.
  await Promise.all(urls.map((u) => wrk(u)));
  const rates = Promise.all(urls.map((u) => wrk(u)));
  await new Promise((r) => setTimeout(r, 1000));
  const [gwSamples, bareSamples] = await Promise.all([record(gateway.child.pid ?? 0, join(root, "gateway.data")), record(bare.child.pid ?? 0, join(root, "bare.data"))]);
  const [gwRate = 0, bareRate = 0] = await rates;
  process.stdout.write(`cached ${path}, both loaded at once on core 0 (wrk -c32 on core 1): gateway ${Math.round(gwRate)}/s, bare ${Math.round(bareRate)}/s\n`);
  printDiff(gwSamples, gwRate, bareSamples, bareRate);
} finally {
  for (const p of procs) p.child.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 300));
  await rm(root, { recursive: true, force: true });
  // perf leaves its JIT maps behind (--perf-basic-prof writes /tmp/perf-PID.map).
  for (const p of procs) await rm(`/tmp/perf-${p.child.pid ?? 0}.map`, { force: true });
}
