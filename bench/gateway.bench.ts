// Gateway throughput against peers serving the same bytes in the same run:
// 1. cached GET /api/releases/client/latest with wrk (same connections),
//    against a bare node:http server answering the same bytes and headers
//    from a buffer (the node:http ceiling, which the gateway's raw lane passes)
//    and nginx serving them from a file.
//    Each round loads two servers AT ONCE, both pinned to the first core and
//    each with its own wrk on the second: they share one core, so a change
//    of the machine's speed (a shared VM swings 30 % within seconds) hits
//    both alike and their ratio holds, where runs taken one after the other
//    swung more than the gap being measured. The median ratio of
//    BENCH_ROUNDS (5) rounds per pair, with the spread of the ratios;
// 2. download of a 1 GiB artifact against nginx, with the gateway's RSS growth.
import { spawn, spawnSync } from "node:child_process";
import { chmod, open, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../tests/harness/free-port.js";
import { startProcess, type Started } from "../tests/harness/processes.js";
import { waitFor } from "../tests/harness/wait-for.js";
import { medianRun, spreadOf, trustLine } from "./trust.js";
import { bareHeadersOf } from "./fixtures/bare-headers.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const connections = 32;
const gatewayBin = fileURLToPath(new URL("../app/bin/gateway.js", import.meta.url));

// Two cores or more, and taskset (util-linux): servers on core 0, wrk on core 1.
const pinned = availableParallelism() >= 2 && spawnSync("taskset", ["-c", "0", "true"]).status === 0;
const onServerCore = (cmd: string, args: string[]): [string, string[]] => (pinned ? ["taskset", ["-c", "0", cmd, ...args]] : [cmd, args]);

/** Requests per second of one wrk run; asynchronous, so that two run at once. */
async function wrk(url: string, durationS = seconds): Promise<number> {
  const [cmd, args] = pinned ? ["taskset", ["-c", "1", "wrk"]] : ["wrk", []];
  const child = spawn(cmd, [...args, "-t1", `-c${connections}`, `-d${durationS}s`, url]);
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (out += c.toString()));
  await new Promise((resolve) => child.once("close", resolve));
  const m = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!m?.[1]) throw new Error(`wrk failed: ${out}`);
  return Number(m[1]);
}

interface Pair {
  readonly a: number;
  readonly b: number;
  readonly ratio: number;
}

/** `rounds` runs of two servers loaded at once (see the top): each side's rate and a:b. */
async function pairs(a: string, b: string, rounds: number): Promise<Pair[]> {
  const out: Pair[] = [];
  for (let round = 0; round < rounds; round++) {
    const [ra, rb] = await Promise.all([wrk(a), wrk(b)]);
    out.push({ a: ra, b: rb, ratio: ra / rb });
  }
  return out;
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
  const gateway = startProcess(...onServerCore(process.execPath, [gatewayBin, "--listen", `127.0.0.1:${gwPort}`, "--data-dir", join(root, "data"), "--kms-listen", "off"]), { env: { ...process.env, LOG_LEVEL: "warn" } });
  procs.push(gateway);
  const gw = `http://127.0.0.1:${gwPort}`;
  await waitFor(() => fetch(`${gw}/healthz`).then((r) => r.ok), { what: `gateway: ${gateway.output()}`, timeoutMs: 30000 });
  const latestPath = "/api/releases/client/latest";
  const first = await fetch(`${gw}${latestPath}`, { headers: { "accept-encoding": "identity" } });
  const body = Buffer.from(await first.arrayBuffer());
  // The ceiling sends exactly what the gateway sends: same body, same headers.
  const sameHeaders = bareHeadersOf(first);

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
  const nginx = startProcess(...onServerCore("nginx", ["-p", join(root, "nginx"), "-c", join(root, "nginx/nginx.conf"), "-g", "daemon off;"]));
  procs.push(nginx);
  const ng = `http://127.0.0.1:${nginxPort}`;
  await waitFor(() => fetch(`${ng}${latestPath}`).then((r) => r.ok), { what: `nginx: ${nginx.output()}` });

  const barePort = await freePort();
  const bare = startProcess(...onServerCore(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./fixtures/bare-server.ts", import.meta.url)), join(www, "api/releases/client/latest"), String(barePort), JSON.stringify(sameHeaders)]));
  procs.push(bare);
  await waitFor(() => bare.output().includes("ready"), { what: "bare node server", timeoutMs: 15000 });
  const bareUrl = `http://127.0.0.1:${barePort}`;

  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
  const url = { gateway: `${gw}${latestPath}`, bare: `${bareUrl}${latestPath}`, nginx: `${ng}${latestPath}` };
  // Warm-up first, in pairs as measured: the JIT settles before anything is counted.
  await Promise.all([wrk(url.gateway, 2), wrk(url.bare, 2)]);
  await Promise.all([wrk(url.gateway, 2), wrk(url.nginx, 2)]);
  const vsBare = await pairs(url.gateway, url.bare, rounds);
  const vsNginx = await pairs(url.gateway, url.nginx, rounds);
  const ratio = (p: Pair): number => p.ratio;
  const f = (n: number): string => Math.round(n).toLocaleString("en-US");
  const line = (peer: string, runs: Pair[], target: string): string => {
    const mid = medianRun(runs, ratio);
    return (
      `  gateway:${peer} ${mid.ratio.toFixed(2)}x${target} (per round ${runs.map((p) => p.ratio.toFixed(2)).join(", ")}; spread ${(100 * spreadOf(runs, ratio)).toFixed(0)}%; ` +
      `median round: gateway ${f(mid.a)}/s, ${peer} ${f(mid.b)}/s, on half a core each)\n`
    );
  };
  process.stdout.write(
    `cached ${latestPath} (${body.byteLength} B, wrk -c${connections} ${seconds}s, ${rounds} rounds, two servers loaded at once${pinned ? " on core 0, the wrks on core 1" : " (not pinned: no taskset or one core)"}):\n` +
      line("bare-node", vsBare, " (target >= 0.95x)") +
      line("nginx", vsNginx, ""),
  );
  process.stdout.write(trustLine(rounds, { "gateway:bare-node": spreadOf(vsBare, ratio), "gateway:nginx": spreadOf(vsNginx, ratio) }));

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
