// Three routed nats-server processes whose members can be killed and started
// again on the same ports, which the shared harness cluster cannot do: the
// chaos test needs a NATS node to come back where the KMS nodes look for it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../harness/free-port.js";
import { startProcess, type Started } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";

export interface ChaosNatsNode {
  readonly name: string;
  readonly port: number;
  readonly monitorPort: number;
  readonly clusterPort: number;
  proc: Started | undefined;
}

export interface ChaosNats {
  readonly nodes: readonly ChaosNatsNode[];
  /** Every client URL, comma-separated, as the KMS config's `nats:` takes them. */
  readonly urls: string;
  kill(node: ChaosNatsNode): Promise<void>;
  /** SIGSTOP: the server keeps its sockets but answers nothing, like a stalled host. */
  pause(node: ChaosNatsNode): void;
  /** SIGCONT, then waits until it routes to the other two again. */
  resume(node: ChaosNatsNode): Promise<void>;
  /** Starts a killed node again and waits until it routes to the other two. */
  restart(node: ChaosNatsNode): Promise<void>;
  stop(): Promise<void>;
}

async function monitor<T>(port: number, path: string): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2000) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return (await res.json()) as T;
}

export async function startChaosNats(size = 3): Promise<ChaosNats> {
  const dir = await mkdtemp(join(tmpdir(), "chaos-nats-"));
  const nodes: ChaosNatsNode[] = [];
  for (let i = 0; i < size; i++) nodes.push({ name: `nats${i + 1}`, port: await freePort(), monitorPort: await freePort(), clusterPort: await freePort(), proc: undefined });

  const launch = (n: ChaosNatsNode): void => {
    const routes = nodes.filter((o) => o !== n).map((o) => `nats://127.0.0.1:${o.clusterPort}`).join(",");
    const args = ["-a", "127.0.0.1", "-p", String(n.port), "-m", String(n.monitorPort), "-n", n.name, "--cluster_name", "chaos", "--cluster", `nats://127.0.0.1:${n.clusterPort}`, "--routes", routes];
    n.proc = startProcess("nats-server", args, { cwd: dir });
  };
  const routed = (n: ChaosNatsNode): Promise<number> =>
    waitFor(() => monitor<{ num_routes: number }>(n.monitorPort, "/routez").then((r) => r.num_routes >= size - 1 && r.num_routes), {
      what: `${n.name} routing to its peers (${n.proc?.output().trim().split("\n").at(-1) ?? ""})`,
      timeoutMs: 30000,
      intervalMs: 100,
    });
  const stop = async (): Promise<void> => {
    await Promise.all(nodes.map((n) => n.proc?.kill()));
    await rm(dir, { recursive: true, force: true });
  };

  try {
    for (const n of nodes) launch(n);
    for (const n of nodes) await routed(n);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    nodes,
    urls: nodes.map((n) => `nats://127.0.0.1:${n.port}`).join(","),
    kill: async (n) => {
      await n.proc?.kill();
    },
    restart: async (n) => {
      launch(n);
      await routed(n);
    },
    pause: (n) => {
      n.proc?.child.kill("SIGSTOP");
    },
    resume: async (n) => {
      n.proc?.child.kill("SIGCONT");
      await routed(n);
    },
    stop,
  };
}
