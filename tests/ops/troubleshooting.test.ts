// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// Every row of the troubleshooting table in docs/operations.md, provoked for
// real: the table is parsed from the document and each quoted symptom must
// appear in what our software prints (kms CLI, mc, Prometheus, a node's
// start-up), so the guide and the programs cannot drift apart. One launcher
// cluster for the file; extra nodes start beside it for the join rows.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createKmsClient, identityOfSeed, newApiKey, parseApiKey } from "@mc/kms";
import { reopenCa } from "../../scripts/cluster/reopen-ca.js";
import { newSoftwareHsmKey } from "../../scripts/cluster/secrets.js";
import { freePort } from "../harness/free-port.js";
import { startProcess, type Started } from "../harness/processes.js";
import { startPrometheus } from "../harness/prometheus.js";
import { waitFor } from "../harness/wait-for.js";
import { kmsBin } from "../kms/kms-harness.js";
import { cluster, killClusterOnExit, readState, repoRoot, run, type LauncherState } from "./ops-harness.js";

interface Row {
  readonly id: string;
  readonly condition: string;
  /** The exact text the guide quotes; `<...>` marks the varying part. */
  readonly quote: string;
}

/** The troubleshooting table of docs/operations.md. */
export async function troubleshootingRows(): Promise<Row[]> {
  const doc = await readFile(join(repoRoot, "docs/operations.md"), "utf8");
  const section = doc.split(/^## Troubleshooting$/m)[1] ?? "";
  const rows: Row[] = [];
  for (const line of section.split("\n")) {
    const cells = line.split(" | ");
    const id = /^\| ([a-z0-9-]+)$/.exec(cells[0] ?? "")?.[1];
    if (!id || id === "id" || cells.length !== 4) continue;
    const quotes = [...(cells[2] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");
    rows.push({ id, condition: cells[1] ?? "", quote: quotes.at(-1) ?? "" });
  }
  return rows;
}

/** The quote as a pattern: literal text, `<...>` matching any non-empty part. */
export const quotePattern = (quote: string): RegExp =>
  new RegExp(quote.split(/<[^>]+>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".+?"));

interface Ctx {
  dir: string;
  env: NodeJS.ProcessEnv;
  state: LauncherState | undefined;
  ca: Buffer;
  apiKey: string;
  mcDir: string;
  rows: Row[];
  nodes: Started[];
  silent: Server | undefined;
}

const t = suite<Ctx>("troubleshooting guide (docs/operations.md)", { dir: "", env: {}, state: undefined, ca: Buffer.alloc(0), apiKey: "", mcDir: "", rows: [], nodes: [], silent: undefined });

const kmsPort = (ctx: Ctx, i = 0): number => ctx.state?.ports.kms[i] ?? 0;
const caFile = (ctx: Ctx): string => join(ctx.dir, "secrets", "ca.crt");
const text = (r: { stdout: string; stderr: string }): string => `${r.stdout}${r.stderr}`;

const mc = (ctx: Ctx, args: readonly string[], configDir = ctx.mcDir) =>
  run(process.execPath, [join(repoRoot, "cli/bin/mc.js"), ...args], { ...process.env, MC_CONFIG_DIR: configDir, KMS_API_KEY: "" }).then(text);

const kmsCli = (args: readonly string[], env: NodeJS.ProcessEnv) => run(process.execPath, [kmsBin, ...args], { ...process.env, KMS_CA: "", ...env }).then(text);

/** An mc configuration folder with a KMS alias; `trustCa` copies the cluster CA into certs/CAs. */
async function mcConfig(ctx: Ctx, name: string, alias: string, url: string, apiKey: string, trustCa: boolean): Promise<string> {
  const dir = join(ctx.dir, `mc-${name}`);
  if (trustCa) {
    await mkdir(join(dir, "certs", "CAs"), { recursive: true });
    await writeFile(join(dir, "certs", "CAs", "ca.crt"), ctx.ca);
  }
  const out = await mc(ctx, ["alias", "set", alias, url, "--api-key", apiKey], dir);
  assert.match(out, `Added \`${alias}\` successfully.`);
  return dir;
}

interface NodeOptions {
  readonly name: string;
  readonly hosts: readonly string[];
  readonly days?: number;
  readonly hsmKey?: string;
  /** Omitted: a single node without a cluster section. */
  readonly nats?: string;
  /** The node founds a group of its own (so it holds data) instead of naming the cluster's members. */
  readonly alone?: boolean;
}

/** A KMS node beside the cluster: its own certificate from the cluster CA, started as a process. */
async function startNode(ctx: Ctx, o: NodeOptions): Promise<{ port: number; proc: Started }> {
  const dir = join(ctx.dir, "extra", o.name);
  await mkdir(dir, { recursive: true });
  const ca = await reopenCa(ctx.ca.toString(), await readFile(join(ctx.dir, "secrets", "ca.key"), "utf8"));
  const pair = await ca.issueServer(o.hosts, o.days);
  await writeFile(join(dir, "server.crt"), pair.cert);
  await writeFile(join(dir, "server.key"), pair.key, { mode: 0o600 });
  const port = await freePort();
  const members = (ctx.state?.ports.kms ?? []).map((p) => `127.0.0.1:${p}`);
  const yaml = [
    "version: v1",
    `address: 127.0.0.1:${port}`,
    "data_dir: data",
    "tls: {cert: server.crt, key: server.key}",
    "enclaves: [default]",
    "log: {audit: off}",
    ...(o.nats ? ["cluster:", `  nats: ${o.nats}`, "  id: mc", `  host: 127.0.0.1:${port}`, `  nodes: [${o.alone ? `127.0.0.1:${port}` : members.join(", ")}]`] : []),
  ].join("\n");
  await writeFile(join(dir, "kms.yaml"), `${yaml}\n`);
  const hsmKey = o.hsmKey ?? (await readFile(join(ctx.dir, "secrets", "hsm.key"), "utf8")).trim();
  const proc = startProcess(process.execPath, [kmsBin, "server", "--config", join(dir, "kms.yaml")], { env: { ...process.env, KMS_HSM_KEY: hsmKey } });
  ctx.nodes.push(proc);
  return { port, proc };
}

const listening = (proc: Started, what: string) =>
  waitFor(() => {
    if (proc.child.exitCode !== null) throw new Error(`${what} exited: ${proc.output()}`);
    return proc.output().includes("kms: listening on");
  }, { what, timeoutMs: 30000, intervalMs: 100 });

t.before(async (ctx) => {
  ctx.dir = await mkdtemp(join(tmpdir(), "mc-troubleshoot-"));
  ctx.env = { ...process.env, MC_CLUSTER_DIR: ctx.dir, MC_CLUSTER_PORTS: "auto", KMS_HSM_KEY: "" };
  killClusterOnExit(ctx.dir);
  ctx.rows = await troubleshootingRows();
  const r = await cluster(["up"], ctx.env);
  if (r.code !== 0) throw new Error(`cluster up failed: ${r.stderr}`);
  ctx.state = await readState(ctx.dir);
  ctx.ca = await readFile(caFile(ctx));
  ctx.apiKey = (await readFile(join(ctx.dir, "secrets", "root-api-key"), "utf8")).trim();
  ctx.mcDir = await mcConfig(ctx, "root", "kms", `https://127.0.0.1:${kmsPort(ctx)}`, ctx.apiKey, true);
});

t.after(async (ctx) => {
  ctx.silent?.close();
  for (const n of ctx.nodes) await n.kill();
  await cluster(["down"], ctx.env).catch(() => undefined);
  await rm(ctx.dir, { recursive: true, force: true });
});

type Provoke = (ctx: Ctx) => Promise<string>;

const provoke: Record<string, Provoke> = {
  async "expired-cert"(ctx) {
    const node = await startNode(ctx, { name: "expired", hosts: ["127.0.0.1"], days: 0 });
    await listening(node.proc, "node with an expired certificate");
    return kmsCli(["cluster", "status", "--server", `127.0.0.1:${node.port}`, "--ca", caFile(ctx)], { KMS_API_KEY: ctx.apiKey });
  },
  async "untrusted-ca"(ctx) {
    const dir = await mcConfig(ctx, "untrusted", "kms", `https://127.0.0.1:${kmsPort(ctx)}`, ctx.apiKey, false);
    return mc(ctx, ["admin", "kms", "key", "list", "kms"], dir);
  },
  async "key-not-in-enclave"(ctx) {
    const teamB = await createKmsClient({ server: `127.0.0.1:${kmsPort(ctx)}`, ca: ctx.ca, apiKey: ctx.apiKey, enclave: "team-b" });
    try {
      await teamB.call("POST", "/v1/enclave/create/team-b", {});
      await teamB.createKey("app-key");
      // The fix the guide gives works: in its own enclave the key answers.
      assert.ok((await teamB.generate("app-key")).ciphertext);
    } finally {
      teamB.close();
    }
    return mc(ctx, ["admin", "kms", "key", "status", "kms", "app-key"]);
  },
  async "identity-without-policy"(ctx) {
    const key = newApiKey();
    const root = await createKmsClient({ server: `127.0.0.1:${kmsPort(ctx)}`, ca: ctx.ca, apiKey: ctx.apiKey });
    try {
      await root.call("POST", `/v1/identity/create/${identityOfSeed(parseApiKey(key) ?? new Uint8Array())}`, {});
    } finally {
      root.close();
    }
    const dir = await mcConfig(ctx, "user", "user", `https://127.0.0.1:${kmsPort(ctx)}`, key, true);
    return mc(ctx, ["admin", "kms", "key", "list", "user"], dir);
  },
  async "metrics-path"(ctx) {
    const prom = await startPrometheus(join(ctx.dir, "prometheus"), [{ name: "kms", target: `127.0.0.1:${kmsPort(ctx)}`, caFile: caFile(ctx) }]);
    try {
      const seen = await waitFor(async () => {
        const kms = (await prom.targets()).kms;
        return kms && kms.health !== "unknown" ? kms : undefined;
      }, { what: "the kms target scraped", timeoutMs: 20000, intervalMs: 250 });
      assert.is(seen.health, "down");
      return seen.lastError;
    } finally {
      await prom.stop();
    }
  },
  async "kms-down"(ctx) {
    const dir = await mcConfig(ctx, "down", "down", `https://127.0.0.1:${await freePort()}`, ctx.apiKey, true);
    return mc(ctx, ["admin", "kms", "key", "list", "down"], dir);
  },
  async "wrong-endpoint"(ctx) {
    const dir = await mcConfig(ctx, "wrong", "wrong", `https://127.0.0.1:${ctx.state?.ports.gateway ?? 0}`, ctx.apiKey, true);
    return mc(ctx, ["admin", "kms", "key", "list", "wrong"], dir);
  },
  async "port-blocked"(ctx) {
    // A port that accepts and never answers behaves as one a firewall drops:
    // the client waits out its timeout (cut to 300 ms here instead of 15 s).
    const silent = createServer(() => undefined);
    ctx.silent = silent;
    await new Promise<void>((ok) => silent.listen(0, "127.0.0.1", ok));
    const port = (silent.address() as { port: number }).port;
    const client = await createKmsClient({ server: `127.0.0.1:${port}`, ca: ctx.ca, apiKey: ctx.apiKey, timeoutMs: 300 });
    try {
      await client.call("GET", "/v1/key/list/*");
      return "answered";
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    } finally {
      client.close();
    }
  },
  "ca-not-trusted": (ctx) => kmsCli(["cluster", "status", "--server", `127.0.0.1:${kmsPort(ctx)}`], { KMS_API_KEY: ctx.apiKey }),
  async "elections-rising"(ctx) {
    // promtool evaluates ops/alerts.yml over a counter rising by one every 15 s
    // and, told to expect no alert, prints the alert it got, rendered.
    const file = join(ctx.dir, "rules-test.yml");
    const series = 'consens_elections{job="kms",instance="127.0.0.1:7373"}';
    await writeFile(file, [
      "rule_files:", `  - ${join(repoRoot, "ops/alerts.yml")}`, "evaluation_interval: 15s", "tests:", "  - interval: 15s", "    input_series:",
      `      - series: '${series}'`, "        values: '1+1x20'", `      - series: '${series.replace("7373", "7374")}'`, "        values: '1+0x20'",
      "    alert_rule_test:", "      - eval_time: 5m", "        alertname: KmsLeaderElectionsRising", "        exp_alerts: []",
    ].join("\n"));
    const r = await run("promtool", ["test", "rules", file]);
    assert.not.match(r.stdout, "127.0.0.1:7374", "a node with one election does not alert");
    return text(r);
  },
  async "join-not-added"(ctx) {
    const node = await startNode(ctx, { name: "fresh", hosts: ["127.0.0.1"], nats: natsOf(ctx) });
    await listening(node.proc, "fresh node");
    return waitFor(() => (node.proc.output().includes("not part of cluster") ? node.proc.output() : undefined), { what: "the fresh node's log", timeoutMs: 10000 });
  },
  "join-unreachable": async (ctx) => addNode(ctx, `127.0.0.1:${await freePort()}`),
  async "join-cert-san"(ctx) {
    const node = await startNode(ctx, { name: "wrong-san", hosts: ["kms9.example.net"], nats: natsOf(ctx) });
    await listening(node.proc, "node with a certificate for another name");
    return addNode(ctx, `127.0.0.1:${node.port}`);
  },
  async "join-hsm"(ctx) {
    const node = await startNode(ctx, { name: "other-hsm", hosts: ["127.0.0.1"], nats: natsOf(ctx), hsmKey: newSoftwareHsmKey() });
    await listening(node.proc, "node with another HSM key");
    return addNode(ctx, `127.0.0.1:${node.port}`);
  },
  async "join-not-empty"(ctx) {
    const node = await startNode(ctx, { name: "used", hosts: ["127.0.0.1"], nats: natsOf(ctx), alone: true });
    await listening(node.proc, "node that founded its own group");
    return addNode(ctx, `127.0.0.1:${node.port}`);
  },
  async "join-nats"(ctx) {
    const node = await startNode(ctx, { name: "no-nats", hosts: ["127.0.0.1"], nats: `nats://127.0.0.1:${await freePort()}` });
    await waitFor(() => node.proc.child.exitCode !== null, { what: "the node without NATS to exit", timeoutMs: 30000 });
    assert.is(node.proc.child.exitCode, 1);
    return node.proc.output();
  },
};

const natsOf = (ctx: Ctx): string => (ctx.state?.ports.nats ?? []).map((n) => `nats://127.0.0.1:${n.client}`).join(",");
const addNode = (ctx: Ctx, host: string): Promise<string> =>
  kmsCli(["cluster", "add", host, "--server", `127.0.0.1:${kmsPort(ctx)}`, "--ca", caFile(ctx)], { KMS_API_KEY: ctx.apiKey });

t("should cover every condition the guide must cover, one provoking check per row", (ctx) => {
  const ids = ctx.rows.map((r) => r.id);
  assert.equal([...ids].sort(), Object.keys(provoke).sort(), "rows of the table = provoked conditions");
  const conditions = ctx.rows.map((r) => r.condition.toLowerCase()).join(" | ");
  for (const c of ["expired", "ca", "enclave", "policy", "/metrics", "not running", "port 7373", "elections", "cannot join", "nats", "certificate does not name", "hsm"]) {
    assert.match(conditions, c, `a row covers '${c}'`);
  }
  for (const r of ctx.rows) assert.ok(r.quote.length >= 10, `${r.id} quotes a symptom`);
});

t("should parse placeholders in quotes as the varying part only", () => {
  const p = quotePattern("kms: cannot join cluster: node '<host>' is not reachable");
  assert.ok(p.test("kms: cannot join cluster: node '127.0.0.1:4' is not reachable"));
  assert.not.ok(p.test("kms: cannot join cluster: node '' is not reachable"));
  assert.not.ok(p.test("kms: cannot join cluster: certificate of '127.0.0.1:4' does not match its address"));
  assert.ok(quotePattern("(x) a.b").test("(x) a.b"));
  assert.not.ok(quotePattern("(x) a.b").test("(x) aXb"));
});

for (const id of Object.keys(provoke)) {
  t(`should print the guide's symptom for ${id}`, async (ctx) => {
    const row = ctx.rows.find((r) => r.id === id);
    assert.ok(row, `docs/operations.md has a row ${id}`);
    const output = await (provoke[id] as Provoke)(ctx);
    assert.match(output, quotePattern(row.quote), `${id}: '${row.quote}' in:\n${output}`);
  });
}

t.run();
