// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// The launcher as an operator runs it (`npm run cluster -- up|status|down`),
// one cluster for the whole file: up prints every endpoint, a second up
// starts nothing, status names the leader and three ready nodes, a real
// Prometheus on the example configuration (ops/prometheus.yml, the same
// ops/alerts.yml) scrapes all three nodes and fires the elections alert when
// leaders are paused, and down leaves no process behind.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { parse, stringify } from "yaml";
import { createKmsClient } from "@mc/kms";
import { loadTopology } from "../../scripts/cluster/topology.js";
import { waitFor } from "../harness/wait-for.js";
import { alive, cluster, killClusterOnExit, pidOf, readState, repoRoot, startPrometheusFromFile, type LauncherState, type PromServer } from "./ops-harness.js";

interface Ctx {
  dir: string;
  env: NodeJS.ProcessEnv;
  state: LauncherState | undefined;
  pids: Map<string, number>;
  prom: PromServer | undefined;
}

const names = ["nats1", "nats2", "nats3", "kms1", "kms2", "kms3", "releases1", "releases2", "gateway", "gateway2"];
const launcher = suite<Ctx>("cluster launcher (npm run cluster)", { dir: "", env: {}, state: undefined, pids: new Map(), prom: undefined });

launcher.before(async (ctx) => {
  ctx.dir = await mkdtemp(join(tmpdir(), "mc-cluster-"));
  ctx.env = { ...process.env, MC_CLUSTER_DIR: ctx.dir, MC_CLUSTER_PORTS: "auto", KMS_HSM_KEY: "" };
  killClusterOnExit(ctx.dir);
});

launcher.after(async (ctx) => {
  await ctx.prom?.stop();
  // Whatever a failed test left running: down, then anything still alive by pid.
  await cluster(["down"], ctx.env).catch(() => undefined);
  for (const pid of ctx.pids.values()) if (await alive(pid)) process.kill(pid, "SIGKILL");
  await rm(ctx.dir, { recursive: true, force: true });
});

launcher("should give a state from before the second gateway its port (8081 beside 8080, else a free one) and save it at the next up", async () => {
  const dir = await mkdtemp(join(tmpdir(), "mc-cluster-old-state-"));
  try {
    const nats = [0, 1, 2].map((i) => ({ client: 4222 + i, cluster: 6222 + i, monitor: 8222 + i }));
    await writeFile(join(dir, "state.json"), JSON.stringify({ ports: { nats, kms: [7373, 7374, 7375], gateway: 8080 } }));
    const old = await loadTopology(dir, {});
    assert.is(old.topology.ports.gateway2, 8081);
    assert.ok(old.unsaved);
    await writeFile(join(dir, "state.json"), JSON.stringify({ ports: { nats, kms: [7373, 7374, 7375], gateway: 18080 } }));
    const moved = await loadTopology(dir, {});
    assert.ok(moved.topology.ports.gateway2 > 0 && moved.topology.ports.gateway2 !== 18080);
    await writeFile(join(dir, "state.json"), JSON.stringify({ ports: { ...moved.topology.ports } }));
    assert.not.ok((await loadTopology(dir, {})).unsaved);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

launcher("should refuse to start without nats-server on PATH, with the fix in the message, and start nothing", async (ctx) => {
  const r = await cluster(["up"], { ...ctx.env, PATH: dirname(process.execPath) });
  assert.is(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, "cluster: nats-server not found on PATH: install it (Debian: apt-get install nats-server)");
  const down = await cluster(["down"], ctx.env);
  assert.is(down.code, 0);
  assert.match(down.stdout, "cluster is not up");
});

launcher("should bring the topology up, return once ready and print every endpoint, the CA and the root API key", async (ctx) => {
  const r = await cluster(["up"], ctx.env);
  assert.is(r.code, 0, r.stderr);
  ctx.state = await readState(ctx.dir);
  for (const n of names) ctx.pids.set(n, await pidOf(ctx.dir, n));
  assert.match(r.stdout, `started ${names.join(", ")}`);
  const { ports } = ctx.state;
  for (const n of ports.nats) assert.match(r.stdout, `nats://127.0.0.1:${n.client}`);
  for (const p of ports.kms) assert.match(r.stdout, `https://127.0.0.1:${p}`);
  assert.match(r.stdout, `http://127.0.0.1:${ports.gateway}`);
  // Several gateways of one deployment (issue 17): the second on its own port, linking the first's base.
  assert.match(r.stdout, new RegExp(`^  gateway2 +http://127\\.0\\.0\\.1:${ports.gateway2} \\(links name http://127\\.0\\.0\\.1:${ports.gateway}\\)$`, "m"));
  for (const port of [ports.gateway, ports.gateway2]) assert.ok((await fetch(`http://127.0.0.1:${port}/healthz`)).ok, `gateway on ${port}`);
  assert.match(r.stdout, `CA:           ${join(ctx.dir, "secrets", "ca.crt")}`);
  assert.match(r.stdout, `root API key: ${join(ctx.dir, "secrets", "root-api-key")}`);
  // Ready means ready: the gateway answers and every KMS node serves a linearizable read with the printed key.
  assert.ok((await fetch(`http://127.0.0.1:${ports.gateway}/healthz`)).ok);
  const ca = await readFile(join(ctx.dir, "secrets", "ca.crt"));
  const apiKey = (await readFile(join(ctx.dir, "secrets", "root-api-key"), "utf8")).trim();
  for (const p of ports.kms) {
    const c = await createKmsClient({ server: `127.0.0.1:${p}`, ca, apiKey });
    try {
      assert.equal((await c.call<{ names: string[] }>("GET", "/v1/key/list/*")).names, []);
    } finally {
      c.close();
    }
  }
  // Each node has its own certificate (SAN: its name) from the one CA.
  const certs = await Promise.all(["kms1", "kms2", "kms3"].map((n) => readFile(join(ctx.dir, "secrets", `${n}.crt`), "utf8")));
  assert.is(new Set(certs).size, 3);
});

launcher("should start nothing on a second up and keep the same processes", async (ctx) => {
  const r = await cluster(["up"], ctx.env);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, "cluster already up");
  for (const n of names) assert.is(await pidOf(ctx.dir, n), ctx.pids.get(n), `${n} kept its process`);
});

launcher("should refuse a second cluster on ports in use, name them, and start nothing", async (ctx) => {
  const other = await mkdtemp(join(tmpdir(), "mc-cluster-busy-"));
  try {
    await writeFile(join(other, "state.json"), JSON.stringify({ ports: ctx.state?.ports }));
    const r = await cluster(["up"], { ...ctx.env, MC_CLUSTER_DIR: other });
    assert.is(r.code, 1, r.stdout);
    const kms1 = ctx.state?.ports.kms[0] ?? 0;
    assert.match(r.stderr, new RegExp(`^cluster: ports (\\d+, )*${kms1}(, \\d+)* on 127\\.0\\.0\\.1 are in use by another program; stop it, or use another state folder with MC_CLUSTER_DIR and MC_CLUSTER_PORTS=auto\n$`));
    assert.not.ok(existsSync(join(other, "run")), "no process was started");
    assert.not.ok(existsSync(join(other, "secrets")), "nothing was created");
  } finally {
    await rm(other, { recursive: true, force: true });
  }
});

launcher("should show each KMS node's role and readiness in status, naming the one leader", async (ctx) => {
  const r = await waitFor(async () => {
    const s = await cluster(["status"], ctx.env);
    return s.code === 0 ? s : undefined;
  }, { what: "a healthy status", timeoutMs: 20000, intervalMs: 500 });
  const leader = /^leader: (kms[123]) \(127\.0\.0\.1:(\d+)\), term \d+$/m.exec(r.stdout);
  assert.ok(leader, r.stdout);
  const kmsLines = r.stdout.split("\n").filter((l) => /^kms[123] /.test(l));
  assert.is(kmsLines.length, 3);
  for (const l of kmsLines) assert.match(l, /running \(pid \d+\)  role (leader|follower)  ready$/);
  assert.is(kmsLines.filter((l) => l.includes("role leader")).length, 1);
  assert.match(kmsLines.find((l) => l.includes("role leader")) ?? "", new RegExp(`^${leader[1]} `));
  for (const n of ["nats1", "releases2", "gateway", "gateway2"]) assert.match(r.stdout, new RegExp(`^${n} .* running \\(pid \\d+\\)$`, "m"));
  assert.match(r.stdout, `http://127.0.0.1:${ctx.state?.ports.gateway2 ?? 0}`);
});

launcher("should name every gateway in env, as a comment eval passes over", async (ctx) => {
  const r = await cluster(["env"], ctx.env);
  assert.is(r.code, 0, r.stderr);
  const ports = ctx.state?.ports;
  assert.match(r.stdout, /^export NATS_URL=nats:\/\/127\.0\.0\.1:\d+(,nats:\/\/127\.0\.0\.1:\d+){2}$/m);
  assert.match(r.stdout, `# gateways: http://127.0.0.1:${ports?.gateway ?? 0} http://127.0.0.1:${ports?.gateway2 ?? 0} `);
});

/** ops/prometheus.yml with this cluster's targets and CA, and short intervals; the rule file is ops/alerts.yml itself. */
async function derivedConfig(ctx: Ctx, dir: string): Promise<string> {
  const example = parse(await readFile(join(repoRoot, "ops/prometheus.yml"), "utf8")) as {
    global: Record<string, string>;
    rule_files: string[];
    scrape_configs: { job_name: string; metrics_path?: string; scheme?: string; tls_config?: { ca_file: string }; static_configs: { targets: string[] }[] }[];
  };
  const { ports } = ctx.state ?? { ports: { kms: [], gateway: 0, gateway2: 0 } };
  example.global = { scrape_interval: "1s", scrape_timeout: "1s", evaluation_interval: "1s" };
  example.rule_files = example.rule_files.map((f) => join(repoRoot, "ops", f));
  for (const job of example.scrape_configs) {
    if (job.job_name === "kms") {
      assert.is(job.metrics_path, "/v1/health/metrics");
      assert.is(job.scheme, "https");
      assert.is(job.static_configs[0]?.targets.length, 3);
      job.tls_config = { ca_file: join(ctx.dir, "secrets", "ca.crt") };
      job.static_configs = [{ targets: ports.kms.map((p) => `127.0.0.1:${p}`) }];
    } else if (job.job_name === "gateway") {
      assert.is(job.static_configs[0]?.targets.length, 2, "both gateways of the deployment");
      job.static_configs = [{ targets: [`127.0.0.1:${ports.gateway}`, `127.0.0.1:${ports.gateway2}`] }];
    }
  }
  const file = join(dir, "prometheus.yml");
  await mkdir(dir, { recursive: true });
  await writeFile(file, stringify(example));
  return file;
}

launcher("should be scraped by a real Prometheus on the example configuration: three KMS targets and both gateways up, consens_elections present", async (ctx) => {
  const dir = join(ctx.dir, "prometheus");
  ctx.prom = await startPrometheusFromFile(dir, await derivedConfig(ctx, dir));
  const prom = ctx.prom;
  const up = await waitFor(async () => {
    const r = await prom.query('up{job="kms"}');
    return r.length === 3 && r.every((s) => s.value[1] === "1") ? r : undefined;
  }, { what: "three kms targets up", timeoutMs: 20000, intervalMs: 250 });
  assert.equal(up.map((s) => s.metric.instance).sort(), (ctx.state?.ports.kms ?? []).map((p) => `127.0.0.1:${p}`).sort());
  const elections = await waitFor(async () => {
    const r = await prom.query("consens_elections");
    return r.length === 3 ? r : undefined;
  }, { what: "consens_elections from three nodes", timeoutMs: 10000, intervalMs: 250 });
  for (const s of elections) assert.ok(Number(s.value[1]) >= 1, `${s.metric.instance} counted its first election`);
  assert.is((await prom.query("sum(consens_leader)"))[0]?.value[1], "1");
  // The gateway's /metrics: up, with the requests the launcher's readiness checks made.
  await waitFor(async () => (await prom.query('up{job="gateway"} == 1')).length === 2, { what: "both gateway targets up", timeoutMs: 10000, intervalMs: 250 });
  const healthz = await prom.query('http_request{job="gateway",route="/healthz",code="200"}');
  assert.ok(Number(healthz[0]?.value[1]) >= 1, "gateway counts its /healthz requests");
  const firing = await prom.query('ALERTS{alertname="KmsLeaderElectionsRising"}');
  assert.equal(firing, [], "a quiet cluster does not alert");
});

launcher("should answer every panel of ops/grafana-dashboard.json: valid PromQL over metric names the cluster exports", async (ctx) => {
  const prom = ctx.prom;
  assert.ok(prom);
  const dash = JSON.parse(await readFile(join(repoRoot, "ops/grafana-dashboard.json"), "utf8")) as { panels: { title: string; targets: { expr: string }[] }[] };
  const titles = dash.panels.map((p) => p.title.toLowerCase()).join(" | ");
  for (const topic of ["elections", "leader", "commit lag", "requests", "latency"]) assert.match(titles, topic);
  const known = new Set(((await (await fetch(`${prom.url}/api/v1/label/__name__/values`)).json()) as { data: string[] }).data);
  for (const panel of dash.panels) {
    for (const { expr } of panel.targets) {
      const res = (await (await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent(expr)}`)).json()) as { status: string; error?: string };
      assert.is(res.status, "success", `${panel.title}: ${expr}: ${res.error ?? ""}`);
      const names = expr.match(/\b(consens_\w+|http_request\w*|up)\b/g) ?? [];
      for (const n of names) assert.ok(known.has(n), `${panel.title}: metric ${n} is exported`);
    }
  }
});

async function leaderName(ctx: Ctx, not?: string): Promise<string> {
  const ca = await readFile(join(ctx.dir, "secrets", "ca.crt"));
  const apiKey = (await readFile(join(ctx.dir, "secrets", "root-api-key"), "utf8")).trim();
  const ports = ctx.state?.ports.kms ?? [];
  return waitFor(async () => {
    for (const [i, p] of ports.entries()) {
      if (`kms${i + 1}` === not) continue;
      const c = await createKmsClient({ server: `127.0.0.1:${p}`, ca, apiKey, timeoutMs: 1000 });
      try {
        const s = await c.call<{ leader_id: string; nodes: { id: string; host: string }[] }>("GET", "/v1/cluster/status").catch(() => undefined);
        const host = s?.nodes.find((n) => n.id === s.leader_id)?.host;
        const name = host ? `kms${ports.findIndex((q) => host.endsWith(`:${q}`)) + 1}` : undefined;
        if (name && name !== not) return name;
      } finally {
        c.close();
      }
    }
    return undefined;
  }, { what: `a leader other than ${not ?? "none"}`, timeoutMs: 15000, intervalMs: 100 });
}

launcher("should fire the rising-elections alert when leaders are paused again and again (SIGSTOP)", async (ctx) => {
  const prom = ctx.prom;
  assert.ok(prom);
  for (let round = 0; round < 5; round++) {
    const leader = await leaderName(ctx);
    const pid = await pidOf(ctx.dir, leader);
    process.kill(pid, "SIGSTOP");
    try {
      await leaderName(ctx, leader);
    } finally {
      process.kill(pid, "SIGCONT");
    }
    // Let the resumed node learn the new term and Prometheus scrape it.
    await delay(1200);
  }
  const alerts = await waitFor(async () => {
    const r = await prom.query('ALERTS{alertname="KmsLeaderElectionsRising",alertstate="firing"}');
    return r.length > 0 ? r : undefined;
  }, { what: "KmsLeaderElectionsRising firing", timeoutMs: 30000, intervalMs: 500 });
  assert.ok(alerts.every((a) => a.metric.severity === "warning"));
  const rules = (await (await fetch(`${prom.url}/api/v1/alerts`)).json()) as { data: { alerts: { labels: { alertname: string }; annotations: { summary: string }; state: string }[] } };
  const summary = rules.data.alerts.find((a) => a.labels.alertname === "KmsLeaderElectionsRising" && a.state === "firing")?.annotations.summary ?? "";
  assert.match(summary, /^KMS node 127\.0\.0\.1:\d+: more than 3 leader elections in 5 minutes$/);
});

launcher("should stop every process on down and leave none behind; a second down and status say it is not up", async (ctx) => {
  await ctx.prom?.stop();
  ctx.prom = undefined;
  const r = await cluster(["down"], ctx.env);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, `cluster down: stopped gateway, gateway2, releases1, releases2, kms1, kms2, kms3, nats1, nats2, nats3; no process left`);
  for (const [n, pid] of ctx.pids) assert.not.ok(await alive(pid), `${n} (pid ${pid}) is gone`);
  const again = await cluster(["down"], ctx.env);
  assert.is(again.code, 0);
  assert.match(again.stdout, "cluster is not up");
  const s = await cluster(["status"], ctx.env);
  assert.is(s.code, 1);
  assert.match(s.stdout, "cluster is not up");
});

launcher.run();
