// What the launcher runs: compose.yaml's services as local processes, each
// with the command, configuration and readiness check it needs.
import { writeFile, mkdir, readFile } from "node:fs/promises";
import { request } from "node:https";
import { join } from "node:path";
import type { ProcessSpec } from "./processes.js";
import { logFile, startMarker } from "./processes.js";
import { secretFiles, type SecretFiles } from "./secrets.js";
import { gatewayPorts, kmsHost, natsUrls, repoRoot, type Topology } from "./topology.js";

export interface Service {
  readonly name: string;
  readonly kind: "nats" | "kms" | "releases" | "gateway";
  spec(): Promise<ProcessSpec>;
  /** Resolves true once the service is ready to be used. */
  ready(): Promise<boolean>;
  /** Where operators reach it. */
  readonly endpoint: string;
}

export const kmsNames = ["kms1", "kms2", "kms3"] as const;
export const secretsOf = (t: Topology): SecretFiles => secretFiles(join(t.dir, "secrets"));
/** The release signing key (mode 0600) and the shared release store of the launcher's deployment. */
export const releaseKeyOf = (t: Topology): string => join(t.dir, "secrets", "minisign.key");
export const releaseStoreOf = (t: Topology): string => join(t.dir, "releases");
/** SANs of each node's certificate: its name (as in compose.yaml) and the loopback address it is reached on. */
export const kmsSans = (name: string): string[] => [name, "localhost", "127.0.0.1"];

const bin = (path: string): string => join(repoRoot, path);

async function httpOk(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
  return res?.ok === true;
}

/** GET over TLS trusting only the cluster CA; resolves the HTTP status (0 on a connection error). */
export function kmsGet(port: number, path: string, ca: Buffer): Promise<number> {
  return new Promise((ok) => {
    const req = request({ host: "127.0.0.1", port, path, ca, agent: false, timeout: 2000 }, (res) => {
      res.resume();
      ok(res.statusCode ?? 0);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => ok(0));
    req.end();
  });
}

export function kmsConfigYaml(t: Topology, index: number, adminIdentity: string): string {
  const name = kmsNames[index] ?? "kms1";
  const port = t.ports.kms[index] ?? 7373;
  const cert = secretsOf(t).certOf(name);
  return [
    `# ${name}, written by \`npm run cluster -- up\` (the same shape as ops/compose/${name}.yaml).`,
    "# The HSM key comes from KMS_HSM_KEY (secrets/hsm.key); the root identity is",
    "# that of secrets/root-api-key.",
    "version: v1",
    `address: ${kmsHost(port)}`,
    "data_dir: data",
    "admin:",
    `  identity: ${adminIdentity}`,
    "tls:",
    `  cert: ${cert.cert}`,
    `  key: ${cert.key}`,
    "  auth: off",
    "enclaves: [default]",
    "cluster:",
    `  nats: ${natsUrls(t.ports)}`,
    "  id: mc",
    `  host: ${kmsHost(port)}`,
    `  nodes: [${t.ports.kms.map(kmsHost).join(", ")}]`,
    "log:",
    "  audit: audit.log",
    "",
  ].join("\n");
}

export const kmsConfigFile = (t: Topology, name: string): string => join(t.dir, name, "kms.yaml");

export function services(t: Topology, hsmKey: () => Promise<string>): Service[] {
  const { dir, ports } = t;
  const ca = (): Promise<Buffer> => readFile(secretsOf(t).caFile);
  const store = releaseStoreOf(t);
  const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
  const nats = ports.nats.map((p, i): Service => ({
    name: `nats${i + 1}`,
    kind: "nats",
    endpoint: `nats://127.0.0.1:${p.client} (monitor http://127.0.0.1:${p.monitor})`,
    spec: async () => ({
      name: `nats${i + 1}`,
      command: "nats-server",
      args: [
        "-a", "127.0.0.1", "-p", String(p.client), "-m", String(p.monitor), "-n", `nats${i + 1}`,
        "--cluster_name", "mc", "--cluster", `nats://127.0.0.1:${p.cluster}`,
        "--routes", ports.nats.filter((_, j) => j !== i).map((o) => `nats://127.0.0.1:${o.cluster}`).join(","),
        "-P", join(dir, "run", `nats${i + 1}.pid`),
      ],
    }),
    ready: () => httpOk(`http://127.0.0.1:${p.monitor}/healthz`),
  }));
  const kms = kmsNames.map((name, i): Service => ({
    name,
    kind: "kms",
    endpoint: `https://${kmsHost(ports.kms[i] ?? 0)}`,
    spec: async () => {
      await mkdir(join(dir, name), { recursive: true });
      return {
        name,
        command: process.execPath,
        args: [bin("services/kms/bin/kms.js"), "server", "--config", kmsConfigFile(t, name)],
        env: { ...process.env, KMS_HSM_KEY: await hsmKey() },
        cwd: join(dir, name),
      };
    },
    ready: async () => (await kmsGet(ports.kms[i] ?? 0, "/v1/health/ready", await ca())) === 200,
  }));
  const releases = ["releases1", "releases2"].map((name): Service => ({
    name,
    kind: "releases",
    endpoint: "(on NATS: releases.v1.ReleaseService)",
    spec: async () => {
      await mkdir(store, { recursive: true });
      return { name, command: process.execPath, args: [bin("services/releases/bin/releases.js"), "serve", "--nats", natsUrls(ports), "--store", store, "--base-url", gatewayUrl, "--key", releaseKeyOf(t)] };
    },
    // It has no port: it says so on stdout once it serves on NATS.
    ready: async () => {
      const text = await readFile(logFile(dir, name), "utf8").catch(() => "");
      return /releases ready/.test(text.split(startMarker(name)).at(-1) ?? "");
    },
  }));
  // Two gateways, as compose.yaml runs them: one deployment, so both name its public base (the
  // first one's URL) in their links, as gateways behind one load balancer would.
  const gateways = gatewayPorts(ports).map((port, i): Service => {
    const name = i === 0 ? "gateway" : `gateway${i + 1}`;
    const url = `http://127.0.0.1:${port}`;
    return {
      name,
      kind: "gateway",
      endpoint: i === 0 ? url : `${url} (links name ${gatewayUrl})`,
      spec: async () => ({
        name,
        command: process.execPath,
        args: [bin("gateway/bin/gateway.js"), "--listen", `127.0.0.1:${port}`, "--nats", natsUrls(ports), "--store", store, "--base-url", gatewayUrl],
      }),
      ready: () => httpOk(`${url}/healthz`),
    };
  });
  return [...nats, ...kms, ...releases, ...gateways];
}

export async function writeKmsConfigs(t: Topology, adminIdentity: string): Promise<void> {
  for (const [i, name] of kmsNames.entries()) {
    await mkdir(join(t.dir, name), { recursive: true });
    await writeFile(kmsConfigFile(t, name), kmsConfigYaml(t, i, adminIdentity));
  }
}
