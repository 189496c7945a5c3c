// compose.yaml checked against the code it runs: no Docker engine runs here,
// so the file is parsed and every service's image, command, ports, volumes,
// dependencies and health checks are compared with the programs' own
// defaults and parsers (the KMS configs go through the real config loader).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { parse, parseDocument } from "yaml";
import { loadConfig, parseConfig, type KmsConfig } from "@mc/kms";
import { parseGatewayConfig } from "../../gateway/src/config.js";
import { kmsConfigYaml } from "../../scripts/cluster/services.js";
import { defaultPorts } from "../../scripts/cluster/topology.js";
import { repoRoot } from "./run-tool.js";

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  ports?: string[];
  volumes?: string[];
  restart?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const natsNames = ["nats1", "nats2", "nats3"];
/** Several gateways of one deployment (issue 17): compose's and the launcher's, on the launcher's host ports. */
const gatewayNames = ["gateway", "gateway2"];
const kmsNames = ["kms1", "kms2", "kms3"];
const natsUrls = natsNames.map((n) => `nats://${n}:4222`).join(",");
const hsmKey = `hsm:aes256:${Buffer.alloc(32, 1).toString("base64")}`;

async function load(): Promise<ComposeFile> {
  // Compose resolves YAML merge keys (<<), which YAML 1.2 parsers leave off by default.
  return parse(await readFile(join(repoRoot, "compose.yaml"), "utf8"), { merge: true }) as ComposeFile;
}

const svc = (doc: ComposeFile, name: string): ComposeService => {
  const s = doc.services[name];
  assert.ok(s, `missing service ${name}`);
  return s;
};

/** `a:b[:ro]` volume entries as {source, target}. */
const mounts = (s: ComposeService) => (s.volumes ?? []).map((v) => ({ source: v.split(":")[0] ?? "", target: v.split(":")[1] ?? "" }));

/** Published `HOST_IP:HOST_PORT:CONTAINER_PORT` entries. */
function published(s: ComposeService): { hostIp: string; hostPort: number; port: number }[] {
  return (s.ports ?? []).map((p) => {
    const m = /^(127\.0\.0\.1):(\d+):(\d+)$/.exec(p);
    assert.ok(m, `port '${p}' is published on loopback as IP:HOST:CONTAINER`);
    return { hostIp: m[1] ?? "", hostPort: Number(m[2]), port: Number(m[3]) };
  });
}

/** The program arguments after the script a `node …` or `sh -c "… exec node …"` command runs. */
function argsAfter(s: ComposeService, script: string): string[] {
  const words = (s.command ?? []).flatMap((w) => w.split(/\s+/));
  const i = words.indexOf(script);
  assert.ok(i >= 0, `command runs ${script}: ${(s.command ?? []).join(" ")}`);
  return words.slice(i + 1);
}

const compose = suite("compose.yaml");

compose("should describe a coherent topology :: every dependency exists, conditions are health or completion, every long-running service is health-checked", async () => {
  const doc = await load();
  const names = Object.keys(doc.services);
  for (const n of [...natsNames, ...kmsNames, "kms-init", "releases1", "releases2", ...gatewayNames]) assert.ok(names.includes(n), `missing service ${n}`);
  const oneShot = names.filter((n) => doc.services[n]?.restart === "no");
  assert.equal(oneShot, ["kms-init", "releases-init"]);
  for (const [name, s] of Object.entries(doc.services)) {
    assert.ok(s.image ?? s.build, `${name} has neither image nor build`);
    if (s.build !== undefined) assert.ok(existsSync(join(repoRoot, typeof s.build === "string" ? s.build : ".", "Dockerfile")), `${name}: Dockerfile in the build context`);
    if (!oneShot.includes(name)) assert.ok(s.healthcheck?.test.length, `${name} has no health check`);
    for (const [dep, cond] of Object.entries(s.depends_on ?? {})) {
      assert.ok(names.includes(dep), `${name} depends on unknown ${dep}`);
      assert.is(cond.condition, oneShot.includes(dep) ? "service_completed_successfully" : "service_healthy", `${name} -> ${dep}`);
    }
    for (const m of mounts(s)) {
      if (!m.source.startsWith(".")) assert.ok(m.source in (doc.volumes ?? {}), `${name}: volume ${m.source} is declared`);
      else assert.ok(existsSync(join(repoRoot, m.source)), `${name}: ${m.source} exists in the repo`);
    }
  }
  // No two services publish the same host port.
  const hostPorts = Object.values(doc.services).flatMap((s) => published(s).map((p) => p.hostPort));
  assert.is(new Set(hostPorts).size, hostPorts.length, "host ports are distinct");
});

compose("should run three KMS nodes whose configs the real loader accepts :: own certificate, shared HSM, one cluster, own data volume, ready check on 7373", async () => {
  const doc = await load();
  const init = svc(doc, "kms-init");
  const initArgs = argsAfter(init, "scripts/cluster/init-secrets.ts");
  assert.ok(existsSync(join(repoRoot, "scripts/cluster/init-secrets.ts")));
  const caKeyDir = initArgs.splice(initArgs.indexOf("--ca-key-dir"), 2)[1];
  const caVolume = mounts(init).find((m) => m.target === caKeyDir)?.source;
  assert.ok(caVolume, "the CA key goes to a volume of its own");
  const secretsVolume = mounts(init).find((m) => m.target === initArgs[0])?.source;
  assert.ok(secretsVolume, "init writes into a volume");
  assert.is.not(secretsVolume, caVolume);
  const configs: KmsConfig[] = [];
  const dataVolumes = new Set<string>();
  for (const name of kmsNames) {
    const s = svc(doc, name);
    assert.ok(s.depends_on?.["kms-init"], `${name} waits for the certificates`);
    for (const n of natsNames) assert.ok(s.depends_on?.[n], `${name} waits for ${n}`);
    for (const k of kmsNames) assert.not.ok(s.depends_on?.[k], `${name} must not wait for ${k}: a leader needs a majority up first`);
    const args = argsAfter(s, "services/kms/bin/kms.js");
    assert.is(args[0], "server");
    const configPath = args[args.indexOf("--config") + 1] ?? "";
    const configMount = mounts(s).find((m) => m.target === configPath);
    assert.ok(configMount, `${name}: ${configPath} is mounted from the repo`);
    // The loader as the node runs it: KMS_HSM_KEY is what the command exports from the secrets volume.
    assert.match((s.command ?? []).join(" "), "/secrets/hsm.key");
    const config = await loadConfig(join(repoRoot, configMount.source), { KMS_HSM_KEY: hsmKey });
    configs.push(config);
    assert.is(config.hsm?.kind, "key");
    const { port } = config;
    assert.is(port, 7373, "the contract's default port");
    assert.not.ok(mounts(s).some((m) => m.source === caVolume), `${name} never sees the CA key`);
    const secretsMount = mounts(s).find((m) => m.source === secretsVolume);
    assert.ok(secretsMount && config.tls?.cert.startsWith(`${secretsMount.target}/`), `${name}: certificate from the secrets volume`);
    assert.is(config.tls?.cert, `${secretsMount.target}/${name}.crt`, `${name} has its own certificate`);
    const sans = initArgs.find((a) => a.startsWith(`${name}=`))?.split("=")[1]?.split(",") ?? [];
    assert.ok(sans.includes(name), `${name}'s certificate has its service name as a SAN`);
    assert.is(config.cluster?.host, `${name}:${port}`);
    assert.equal(config.cluster?.nodes, kmsNames.map((k) => `${k}:7373`));
    assert.is(config.cluster?.nats, natsUrls);
    const dataMount = mounts(s).find((m) => m.target === config.dataDir);
    assert.ok(dataMount && !dataMount.source.startsWith("."), `${name}: data_dir ${config.dataDir} is a named volume`);
    dataVolumes.add(dataMount.source);
    assert.ok(published(s).some((p) => p.port === port), `${name} publishes ${port}`);
    const check = s.healthcheck?.test.join(" ") ?? "";
    assert.match(check, "https");
    assert.match(check, "/v1/health/ready");
    assert.match(check, `port:${port}`);
    assert.ok(sans.includes("localhost"), "the health check's host name is in the certificate");
  }
  assert.is(dataVolumes.size, 3, "each node its own data volume");
  assert.is(new Set(configs.map((c) => c.cluster?.id)).size, 1, "one cluster id");
  assert.is(new Set(configs.map((c) => JSON.stringify(c.enclaves))).size, 1, "one enclave list");
});

/** Every leaf path of a YAML mapping, as key lists. */
function leafPaths(v: unknown, at: string[] = []): string[][] {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return [at];
  return Object.entries(v).flatMap(([k, child]) => leafPaths(child, [...at, k]));
}

/** A different value of the same shape, so a key the loader reads changes what it loads (or makes it refuse the file). */
function mutated(v: unknown): unknown {
  if (Array.isArray(v)) return [...v, "x1"];
  if (typeof v === "number") return v + 1;
  if (typeof v === "boolean") return !v;
  return `${String(v)}1`;
}

/** Fails naming any key of the YAML text the KMS loader does not read. */
function assertEveryKeyRead(what: string, text: string): void {
  const env = { KMS_HSM_KEY: hsmKey };
  const whole = JSON.stringify(parseConfig(text, env));
  const plain = parse(text) as unknown;
  const paths = leafPaths(plain);
  assert.ok(paths.length >= 10, `${what} has its settings`);
  const valueAt = (path: string[]): unknown => path.reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], plain);
  for (const path of paths) {
    // `version` is the format marker of contracts/kms.md §7, which the loader does not need.
    if (path.join(".") === "version") continue;
    const doc = parseDocument(text);
    doc.setIn(path, mutated(valueAt(path)));
    let changed: string;
    try {
      changed = JSON.stringify(parseConfig(doc.toString(), env));
    } catch {
      continue; // the loader checked the value and refused it: it reads the key
    }
    assert.is.not(changed, whole, `${what}: the loader ignores ${path.join(".")}`);
  }
}

compose("should ship KMS configs whose every key the loader reads :: changing any one changes what it loads (compose and launcher)", async () => {
  for (const name of kmsNames) assertEveryKeyRead(`ops/compose/${name}.yaml`, await readFile(join(repoRoot, "ops/compose", `${name}.yaml`), "utf8"));
  const topology = { dir: "/tmp/state", ports: { ...defaultPorts } };
  for (const i of [0, 1, 2]) assertEveryKeyRead(`launcher config of kms${i + 1}`, kmsConfigYaml(topology, i, "h1:Rvxa7nj8zkL48CeDkN6LhpX-K7KK6uhIhpBOcTHNhWw"));
});

compose("should point both gateways and both release instances at the NATS cluster and one store :: flags the programs' parsers accept", async () => {
  const doc = await load();
  const gw = svc(doc, "gateway");
  const config = parseGatewayConfig(argsAfter(gw, "gateway/bin/gateway.js"), {});
  const defaults = parseGatewayConfig([], {});
  const storeVolume = mounts(gw).find((m) => m.target === config.storeSpec)?.source;
  assert.ok(storeVolume, "the gateway's store is a volume");
  // The launcher publishes its gateways on the same host ports (topology.ts), first one first.
  const hostPorts = [defaultPorts.gateway, defaultPorts.gateway2];
  assert.is(hostPorts[0], defaults.port, "the first gateway on the gateway's default port");
  for (const [i, name] of gatewayNames.entries()) {
    const s = svc(doc, name);
    const c = parseGatewayConfig(argsAfter(s, "gateway/bin/gateway.js"), {});
    assert.is(c.natsUrl, natsUrls, name);
    assert.is(c.kms, undefined, `${name}: no embedded KMS in the distributed gateway`);
    assert.is(c.port, defaults.port, `${name} listens on the gateway's default port`);
    assert.is(c.baseUrl, config.baseUrl, `${name}: one deployment, one public base URL`);
    assert.ok(published(s).some((p) => p.port === c.port && p.hostPort === hostPorts[i]), `${name} published on ${hostPorts[i]}`);
    assert.match(s.healthcheck?.test.join(" ") ?? "", `:${c.port}/healthz`);
    assert.is(mounts(s).find((m) => m.target === c.storeSpec)?.source, storeVolume, `${name} serves the one store`);
    for (const r of ["releases1", "releases2"]) assert.is(s.depends_on?.[r]?.condition, "service_healthy", `${name} waits for ${r}`);
  }
  for (const name of ["releases1", "releases2"]) {
    const s = svc(doc, name);
    const args = argsAfter(s, "services/releases/bin/releases.js");
    assert.is(args[0], "serve");
    const flag = (f: string) => args[args.indexOf(f) + 1];
    assert.is(flag("--nats"), natsUrls);
    assert.is(flag("--base-url"), config.baseUrl, "links the gateway serves");
    assert.is(mounts(s).find((m) => m.target === flag("--store"))?.source, storeVolume, `${name} shares the gateway's store`);
    // Issue 17: the signing key and sample catalog releases-init made, in the same volumes.
    const init = argsAfter(svc(doc, "releases-init"), "services/releases/bin/releases.js");
    const initFlag = (f: string) => init[init.indexOf(f) + 1];
    assert.is(init[0], "init");
    assert.is(flag("--key"), initFlag("--key"), `${name} signs with the key releases-init made`);
    const keyDir = (flag("--key") ?? "").replace(/\/[^/]+$/, "");
    assert.is(mounts(s).find((m) => m.target === keyDir)?.source, mounts(svc(doc, "releases-init")).find((m) => m.target === keyDir)?.source);
    assert.is(mounts(svc(doc, "releases-init")).find((m) => m.target === initFlag("--store"))?.source, storeVolume);
  }
});

compose("should be accepted by `docker compose config` where Docker Compose exists", () => {
  if (spawnSync("docker", ["compose", "version"], { encoding: "utf8" }).status !== 0) {
    process.stdout.write("  (docker compose is not installed here: skipped)\n");
    return;
  }
  const res = spawnSync("docker", ["compose", "-f", join(repoRoot, "compose.yaml"), "config", "--quiet"], { encoding: "utf8", cwd: repoRoot });
  assert.is(res.status, 0, res.stderr);
});

compose.run();
