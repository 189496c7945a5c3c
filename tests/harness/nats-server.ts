import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.js";
import { startProcess, type Started } from "./processes.js";
import { waitFor } from "./wait-for.js";

export interface NatsNode {
  readonly url: string;
  readonly port: number;
  readonly monitorPort: number;
  readonly process: Started;
  stop(): Promise<void>;
}

export interface NatsCluster {
  readonly nodes: readonly NatsNode[];
  readonly urls: readonly string[];
  stop(): Promise<void>;
}

interface NodeSpec {
  readonly name: string;
  readonly port: number;
  readonly monitorPort: number;
  readonly clusterPort?: number;
  readonly routes?: readonly number[];
  readonly maxPayload?: number;
}

async function monitor<T>(port: number, path: string): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return (await res.json()) as T;
}

async function startNode(spec: NodeSpec, dir: string): Promise<NatsNode> {
  const args = ["-a", "127.0.0.1", "-p", String(spec.port), "-m", String(spec.monitorPort), "-n", spec.name];
  if (spec.clusterPort !== undefined) {
    args.push("--cluster_name", "test", "--cluster", `nats://127.0.0.1:${spec.clusterPort}`);
    args.push("--routes", (spec.routes ?? []).map((p) => `nats://127.0.0.1:${p}`).join(","));
  }
  if (spec.maxPayload !== undefined) {
    // max_payload has no command-line flag: write a small config file.
    const conf = join(dir, `${spec.name}.conf`);
    await writeFile(conf, `max_payload: ${spec.maxPayload}\n`);
    args.push("-c", conf);
  }
  const proc = startProcess("nats-server", args, { cwd: dir });
  await waitFor(() => monitor<{ status: string }>(spec.monitorPort, "/healthz").then((h) => h.status === "ok"), {
    what: `nats-server ${spec.name} on port ${spec.port} (${proc.output().trim().split("\n").at(-1) ?? ""})`,
  });
  return { url: `nats://127.0.0.1:${spec.port}`, port: spec.port, monitorPort: spec.monitorPort, process: proc, stop: () => proc.stop() };
}

export interface NatsServerOptions {
  readonly maxPayload?: number;
  /** A fixed client port, to restart a server where its clients expect it. */
  readonly port?: number;
}

/** One nats-server on free loopback ports, ready when this resolves. */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsNode> {
  const dir = await mkdtemp(join(tmpdir(), "nats-"));
  const node = await startNode({ name: "n1", monitorPort: await freePort(), ...options, port: options.port ?? (await freePort()) }, dir);
  return {
    ...node,
    async stop() {
      await node.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A three-node nats-server cluster, ready once every node routes to the others. */
export async function startNatsCluster(size = 3): Promise<NatsCluster> {
  const dir = await mkdtemp(join(tmpdir(), "nats-cluster-"));
  const ports = await Promise.all(Array.from({ length: size }, async () => ({ port: await freePort(), monitorPort: await freePort(), clusterPort: await freePort() })));
  const nodes: NatsNode[] = [];
  try {
    for (const [i, p] of ports.entries()) {
      const routes = ports.filter((_, j) => j !== i).map((o) => o.clusterPort);
      nodes.push(await startNode({ name: `n${i + 1}`, ...p, routes }, dir));
    }
    for (const node of nodes) {
      await waitFor(() => monitor<{ num_routes: number }>(node.monitorPort, "/routez").then((r) => r.num_routes >= size - 1), {
        what: `cluster routes on port ${node.port}`,
      });
    }
  } catch (err) {
    await Promise.all(nodes.map((n) => n.stop()));
    throw err;
  }
  return {
    nodes,
    urls: nodes.map((n) => n.url),
    async stop() {
      await Promise.all(nodes.map((n) => n.stop()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
