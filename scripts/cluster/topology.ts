// The launcher's topology on loopback: the same services as compose.yaml,
// with ports fixed at the first `up` and kept in state.json (the KMS cluster
// remembers its members by HOST:PORT, so a later `up` must reuse them).
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface Ports {
  readonly nats: readonly { client: number; cluster: number; monitor: number }[];
  readonly kms: readonly number[];
  /** The deployment's public base URL is the first gateway's. */
  readonly gateway: number;
  /** A second gateway of the same deployment (compose.yaml's `gateway2`). */
  readonly gateway2: number;
}

export interface Topology {
  readonly dir: string;
  readonly ports: Ports;
}

/** compose.yaml's published ports, and NATS's own defaults. */
export const defaultPorts: Ports = {
  nats: [0, 1, 2].map((i) => ({ client: 4222 + i, cluster: 6222 + i, monitor: 8222 + i })),
  kms: [7373, 7374, 7375],
  gateway: 8080,
  gateway2: 8081,
};

export const clusterDir = (env: NodeJS.ProcessEnv = process.env): string => resolve(env.MC_CLUSTER_DIR || join(repoRoot, ".cluster"));

export const stateFile = (dir: string): string => join(dir, "state.json");

/**
 * `count` distinct free ports: every listener stays open until all are taken,
 * so the system cannot hand the same port out twice (closing each before
 * asking for the next once gave one NATS node the same monitor and route port).
 */
async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const srv = createServer();
      servers.push(srv);
      await new Promise<void>((ok, fail) => {
        srv.once("error", fail);
        srv.listen(0, "127.0.0.1", ok);
      });
    }
    return servers.map((srv) => {
      const a = srv.address();
      return typeof a === "object" && a ? a.port : 0;
    });
  } finally {
    await Promise.all(servers.map((srv) => new Promise((ok) => srv.close(ok))));
  }
}

/** True when nothing listens on 127.0.0.1:port. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const srv = createServer();
    srv.once("error", () => ok(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => ok(true)));
  });
}

async function autoPorts(): Promise<Ports> {
  const [n1c, n1r, n1m, n2c, n2r, n2m, n3c, n3r, n3m, k1, k2, k3, gateway, gateway2] = (await freePorts(14)) as [number, number, number, number, number, number, number, number, number, number, number, number, number, number];
  const nats = [
    { client: n1c, cluster: n1r, monitor: n1m },
    { client: n2c, cluster: n2r, monitor: n2m },
    { client: n3c, cluster: n3r, monitor: n3m },
  ];
  return { nats, kms: [k1, k2, k3], gateway, gateway2 };
}

export const allPorts = (p: Ports): number[] => [...p.nats.flatMap((n) => [n.client, n.cluster, n.monitor]), ...p.kms, p.gateway, p.gateway2];
/** Every gateway's port, the first being the deployment's public base. */
export const gatewayPorts = (p: Ports): number[] => [p.gateway, p.gateway2];

/**
 * Reads state.json, or plans the ports of a first start (`MC_CLUSTER_PORTS=auto`:
 * free ones). `unsaved` says state.json must be written: a first start, or a
 * state from before the second gateway, which gets the port after the first
 * one's (8081 beside 8080) or, with auto ports, a free one.
 */
export async function loadTopology(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<{ topology: Topology; unsaved: boolean }> {
  if (existsSync(stateFile(dir))) {
    const saved = (JSON.parse(await readFile(stateFile(dir), "utf8")) as { ports: Omit<Ports, "gateway2"> & { gateway2?: number } }).ports;
    if (saved.gateway2 !== undefined) return { topology: { dir, ports: { ...saved, gateway2: saved.gateway2 } }, unsaved: false };
    const used = new Set(allPorts({ ...saved, gateway2: 0 }));
    let gateway2 = defaultPorts.gateway2;
    if (saved.gateway !== defaultPorts.gateway) do [gateway2] = (await freePorts(1)) as [number]; while (used.has(gateway2));
    return { topology: { dir, ports: { ...saved, gateway2 } }, unsaved: true };
  }
  const ports = env.MC_CLUSTER_PORTS === "auto" ? await autoPorts() : defaultPorts;
  return { topology: { dir, ports }, unsaved: true };
}

export async function saveTopology(t: Topology): Promise<void> {
  await mkdir(t.dir, { recursive: true });
  await writeFile(stateFile(t.dir), `${JSON.stringify({ ports: t.ports }, null, 2)}\n`);
}

export const natsUrls = (p: Ports): string => p.nats.map((n) => `nats://127.0.0.1:${n.client}`).join(",");
export const kmsHost = (port: number): string => `127.0.0.1:${port}`;
