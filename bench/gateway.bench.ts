// Gateway throughput against peers serving the same bytes in the same run:
// 1. cached GET /api/releases/client/latest with wrk (same connections),
//    against nginx serving the identical bytes from a file and a bare
//    node:http server answering them from a buffer (the Node ceiling); the
//    median of BENCH_ROUNDS (3) alternating runs of each, with the spread;
// 2. download of a 1 GiB artifact against nginx, with the gateway's RSS growth.
import { spawn, spawnSync } from "node:child_process";
import { chmod, open, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../tests/harness/free-port.js";
import { startProcess, type Started } from "../tests/harness/processes.js";
import { waitFor } from "../tests/harness/wait-for.js";
import { medianRun, spreadOf, trustLine } from "./trust.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = 32;
const gatewayBin = fileURLToPath(new URL("../app/bin/gateway.js", import.meta.url));

function wrk(url: string, durationS = seconds): number {
  const res = spawnSync("wrk", ["-t1", `-c${connections}`, `-d${durationS}s`, "--latency", url], { encoding: "utf8" });
  const m = /Requests\/sec:\s+([\d.]+)/.exec(res.stdout);
  if (!m?.[1]) throw new Error(`wrk failed: ${res.stdout}${res.stderr}`);
  return Number(m[1]);
}

/** Bytes per second of one curl download, sampling `pid`'s RSS meanwhile (peak KiB). */
async function download(url: string, pid?: number): Promise<{ speed: number; peakKiB: number }> {
  const curl = spawn("curl", ["-s", "-o", "/dev/null", "-w", "%{speed_download}", url]);
  let out = "";
  curl.stdout.on("data", (c: Buffer) => (out += c.toString()));
  let peakKiB = 0;
  const sampler = setInterval(() => {
    if (pid) void rssKiB(pid).then((k) => (peakKiB = Math.max(peakKiB, k)));
  }, 50);
  await new Promise((resolve) => curl.once("close", resolve));
  clearInterval(sampler);
  return { speed: Number(out), peakKiB };
}

async function rssKiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

const root = await mkdtemp(join(tmpdir(), "bench-gateway-"));
// nginx workers run as an unprivileged user: they must be able to read the tree.
await chmod(root, 0o755);
const procs: Started[] = [];
try {
  const gwPort = await freePort();
  const gateway = startProcess(process.execPath, [gatewayBin, "--listen", `127.0.0.1:${gwPort}`, "--data-dir", join(root, "data"), "--kms-listen", "off"], { env: { ...process.env, LOG_LEVEL: "warn" } });
  procs.push(gateway);
  const gw = `http://127.0.0.1:${gwPort}`;
  await waitFor(() => fetch(`${gw}/healthz`).then((r) => r.ok), { what: `gateway: ${gateway.output()}`, timeoutMs: 30000 });
  const latestPath = "/api/releases/client/latest";
  const first = await fetch(`${gw}${latestPath}`, { headers: { "accept-encoding": "identity" } });
  const body = Buffer.from(await first.arrayBuffer());
  // The ceiling sends exactly what the gateway sends: same body, same headers.
  const sameHeaders: Record<string, string> = {};
  first.headers.forEach((v, k) => {
    if (!["date", "connection", "keep-alive", "content-length", "transfer-encoding"].includes(k)) sameHeaders[k] = v;
  });

  // The same bytes for the peers, plus a 1 GiB artifact in the gateway's store.
  const www = join(root, "www");
  await mkdir(join(www, "api/releases/client"), { recursive: true });
  await writeFile(join(www, "api/releases/client/latest"), body);
  const bigRel = "client/mc/release/linux-amd64/archive/mc.RELEASE.2026-01-01T00-00-00Z";
  await mkdir(join(root, "data/releases", bigRel, ".."), { recursive: true });
  const big = await open(join(root, "data/releases", bigRel), "w");
  const chunk = Buffer.alloc(8 * 1024 * 1024, 0x5a);
  for (let i = 0; i < 128; i++) await big.write(chunk);
  await big.close();
  await mkdir(join(www, bigRel, ".."), { recursive: true });
  spawnSync("ln", [join(root, "data/releases", bigRel), join(www, bigRel)]);

  const nginxPort = await freePort();
  await mkdir(join(root, "nginx/logs"), { recursive: true });
  await writeFile(
    join(root, "nginx/nginx.conf"),
    `worker_processes 1;\npid ${root}/nginx/nginx.pid;\nerror_log ${root}/nginx/logs/error.log;\nevents { worker_connections 1024; }\nhttp {\n  access_log off;\n  sendfile on;\n  tcp_nopush on;\n  keepalive_requests 1000000;\n  server {\n    listen 127.0.0.1:${nginxPort};\n    root ${www};\n    default_type application/json;\n  }\n}\n`,
  );
  const nginx = startProcess("nginx", ["-p", join(root, "nginx"), "-c", join(root, "nginx/nginx.conf"), "-g", "daemon off;"]);
  procs.push(nginx);
  const ng = `http://127.0.0.1:${nginxPort}`;
  await waitFor(() => fetch(`${ng}${latestPath}`).then((r) => r.ok), { what: `nginx: ${nginx.output()}` });

  const barePort = await freePort();
  const bare = startProcess(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./fixtures/bare-server.ts", import.meta.url)), join(www, "api/releases/client/latest"), String(barePort), JSON.stringify(sameHeaders)]);
  procs.push(bare);
  await waitFor(() => bare.output().includes("ready"), { what: "bare node server", timeoutMs: 15000 });
  const bareUrl = `http://127.0.0.1:${barePort}`;

  // Alternating runs, the median of each (issue 21): the machine has two cores and other work.
  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
  const runs = { gateway: [] as number[], nginx: [] as number[], bare: [] as number[] };
  // Warm-up first: the JIT settles before anything is counted.
  for (const base of [gw, ng, bareUrl]) wrk(`${base}${latestPath}`, 2);
  for (let round = 0; round < rounds; round++) {
    runs.gateway.push(wrk(`${gw}${latestPath}`));
    runs.nginx.push(wrk(`${ng}${latestPath}`));
    runs.bare.push(wrk(`${bareUrl}${latestPath}`));
  }
  const same = (v: number): number => v;
  const [rGateway, rNginx, rBare] = [runs.gateway, runs.nginx, runs.bare].map((r) => medianRun(r, same)) as [number, number, number];
  const f = (n: number): string => Math.round(n).toLocaleString("en-US");
  const spread = (r: number[]): string => `${(100 * spreadOf(r, same)).toFixed(0)}%`;
  process.stdout.write(
    `cached ${latestPath} (${body.byteLength} B, wrk -c${connections} ${seconds}s, median of ${rounds} alternating runs): gateway ${f(rGateway)}/s (spread ${spread(runs.gateway)}), bare node ${f(rBare)}/s (${spread(runs.bare)}), nginx ${f(rNginx)}/s (${spread(runs.nginx)}); ` +
      `gateway:bare-node ${(rGateway / rBare).toFixed(2)}x (target >= 0.95x), gateway:nginx ${(rGateway / rNginx).toFixed(2)}x, bare-node:nginx ${(rBare / rNginx).toFixed(2)}x\n`,
  );
  const ratios = runs.gateway.map((g, i) => g / (runs.bare[i] ?? 1));
  process.stdout.write(`  per-run gateway:bare-node ${ratios.map((x) => x.toFixed(2)).join(", ")}\n`);
  process.stdout.write(trustLine(rounds, { gateway: spreadOf(runs.gateway, same), "bare node": spreadOf(runs.bare, same) }));

  const before = await rssKiB(gateway.child.pid ?? 0);
  let dGateway = 0;
  let dNginx = 0;
  let after = before;
  for (let round = 0; round < 3; round++) {
    const g = await download(`${gw}/${bigRel}`, gateway.child.pid);
    dGateway = Math.max(dGateway, g.speed);
    after = Math.max(after, g.peakKiB);
    dNginx = Math.max(dNginx, (await download(`${ng}/${bigRel}`)).speed);
  }
  const mib = (bps: number): string => (bps / 1024 / 1024).toFixed(0);
  process.stdout.write(
    `download 1 GiB: gateway ${mib(dGateway)} MiB/s, nginx ${mib(dNginx)} MiB/s; gateway:nginx ${(dGateway / dNginx).toFixed(2)}x; gateway RSS growth (peak during the downloads) ${((after - before) / 1024).toFixed(1)} MiB\n`,
  );
} finally {
  await Promise.all(procs.map((p) => p.stop()));
  await rm(root, { recursive: true, force: true });
}
