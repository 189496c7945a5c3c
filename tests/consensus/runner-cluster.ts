// A small real-time Raft cluster for tests: runners with durable logs in a
// temp dir, a list state machine, over whatever bus the test provides.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileLogStore, createRaftRunner, type Configuration, type RaftRunner } from "@mc/consensus";
import type { Bus } from "@mc/shared/bus";
import { initCrypto } from "@mc/wasm";
import { waitFor } from "../harness/wait-for.js";

export interface TestCluster {
  readonly ids: readonly string[];
  runner(id: string): RaftRunner;
  /** Commands applied on a node, in order. */
  applied(id: string): readonly string[];
  /** Entries at which a node wrote its own snapshots (from its log lines). */
  snapshots(id: string): readonly number[];
  start(id: string, bootstrap?: Configuration): Promise<void>;
  stop(id: string): Promise<void>;
  running(): string[];
  leader(among?: readonly string[], timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

const key = new Uint8Array(32).fill(42);
const decoder = new TextDecoder();

export async function createTestCluster(size: number, connect: () => Promise<Bus>): Promise<TestCluster> {
  await initCrypto();
  const base = await mkdtemp(join(tmpdir(), "consensus-cluster-"));
  const ids = Array.from({ length: size }, (_, i) => `n${i + 1}`);
  const founding: Configuration = { voters: ids.map((id) => ({ id, address: `127.0.0.1:${7373 + Number(id.slice(1))}` })), learners: [] };
  const runners = new Map<string, RaftRunner>();
  const applied = new Map<string, string[]>();
  const buses = new Map<string, Bus>();
  const snapshotsOf = new Map<string, number[]>();

  const cluster: TestCluster = {
    ids,
    runner(id) {
      const r = runners.get(id);
      if (!r) throw new Error(`${id} is not running`);
      return r;
    },
    applied: (id) => applied.get(id) ?? [],
    snapshots: (id) => snapshotsOf.get(id) ?? [],
    async start(id, bootstrap = founding) {
      const bus = await connect();
      buses.set(id, bus);
      let list: string[] = [];
      applied.set(id, list);
      const runner = createRaftRunner({
        id, clusterId: "test", bus, bootstrap,
        store: createFileLogStore({ dir: join(base, id), rootKey: key, segmentBytes: 16 * 1024 }),
        apply: (entry) => {
          const text = decoder.decode(entry.data);
          list.push(text);
          return `applied ${text} on ${id}`;
        },
        snapshots: {
          every: 60,
          take: () => new TextEncoder().encode(JSON.stringify(list)),
          restore: (data) => {
            list = JSON.parse(decoder.decode(data.subarray(0, data.length))) as string[];
            applied.set(id, list);
          },
        },
        rpcTimeoutMs: 200,
        log: (line) => {
          const at = /snapshot at entry (\d+) written/.exec(line)?.[1];
          if (at) snapshotsOf.set(id, [...(snapshotsOf.get(id) ?? []), Number(at)]);
        },
      });
      await runner.start();
      runners.set(id, runner);
    },
    async stop(id) {
      const r = runners.get(id);
      runners.delete(id);
      await r?.stop();
      await buses.get(id)?.close();
      buses.delete(id);
    },
    running: () => [...runners.keys()],
    leader(among = [...runners.keys()], timeoutMs = 5000) {
      return waitFor(
        () => {
          const leaders = among.filter((id) => runners.get(id)?.status().role === "leader");
          return leaders.length === 1 ? leaders[0] : undefined;
        },
        { what: `one leader among ${among.join(",")}`, timeoutMs, intervalMs: 5 },
      );
    },
    async close() {
      for (const id of [...runners.keys()]) await cluster.stop(id);
      await rm(base, { recursive: true, force: true });
    },
  };
  return cluster;
}
