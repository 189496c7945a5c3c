// A synchronous in-memory network for the core's unit tests: every node
// persists instantly and messages move only when the test says so.
import { createPrng } from "../src/domain/prng.js";
import { createRaftNode, type RaftConfig, type RaftNode } from "../src/domain/raft-node.js";
import type { Configuration, Entry, Message, PersistedState, Ready, ReadState } from "../src/domain/types.js";

export interface TestNetwork {
  readonly ids: readonly string[];
  node(id: string): RaftNode;
  take(id: string, ready: Ready): void;
  tick(times?: number, only?: readonly string[]): void;
  /** Delivers the next message; false when none is left. */
  deliverOne(): boolean;
  /** Delivers messages (and the answers they cause) until none are left. */
  stabilize(max?: number): Message[];
  isolate(id: string): void;
  cut(a: string, b: string): void;
  heal(): void;
  leader(): string | undefined;
  applied(id: string): Entry[];
  readStates(id: string): ReadState[];
  inflight(): Message[];
  drop(filter: (m: Message) => boolean): void;
  add(id: string, bootstrap?: Configuration): void;
}

const empty: PersistedState = { hardState: { term: 0, votedFor: "", commit: 0 }, entries: [] };

export function createTestNetwork(size: number, options: Partial<RaftConfig> = {}): TestNetwork {
  const ids = Array.from({ length: size }, (_, i) => `n${i + 1}`);
  const config: Configuration = { voters: ids.map((id) => ({ id, address: `${id}:1` })), learners: [] };
  const nodes = new Map<string, RaftNode>();
  const applied = new Map<string, Entry[]>();
  const reads = new Map<string, ReadState[]>();
  const blocked = new Set<string>();
  let queue: Message[] = [];
  const net: TestNetwork = {
    ids,
    node(id) {
      const n = nodes.get(id);
      if (!n) throw new Error(`no node ${id}`);
      return n;
    },
    take(id, ready) {
      queue.push(...ready.messages);
      applied.get(id)?.push(...ready.committed);
      reads.get(id)?.push(...ready.readStates);
    },
    tick(times = 1, only = [...nodes.keys()]) {
      for (let t = 0; t < times; t++) for (const id of only) net.take(id, net.node(id).tick());
    },
    deliverOne() {
      const m = queue.shift();
      if (!m) return false;
      if (!blocked.has(`${m.from}|${m.to}`) && nodes.has(m.to)) net.take(m.to, net.node(m.to).step(m));
      return true;
    },
    stabilize(max = 10000) {
      const delivered: Message[] = [];
      for (let i = 0; i < max && queue.length > 0; i++) {
        const m = queue.shift() as Message;
        if (blocked.has(`${m.from}|${m.to}`) || !nodes.has(m.to)) continue;
        delivered.push(m);
        net.take(m.to, net.node(m.to).step(m));
      }
      return delivered;
    },
    isolate(id) {
      for (const other of nodes.keys()) if (other !== id) net.cut(id, other);
    },
    cut(a, b) {
      blocked.add(`${a}|${b}`);
      blocked.add(`${b}|${a}`);
    },
    heal: () => blocked.clear(),
    leader() {
      const leaders = [...nodes].filter(([, n]) => n.status().role === "leader").sort((a, b) => b[1].status().term - a[1].status().term);
      return leaders[0]?.[0];
    },
    applied: (id) => applied.get(id) ?? [],
    readStates: (id) => reads.get(id) ?? [],
    inflight: () => queue,
    drop(filter) {
      queue = queue.filter((m) => !filter(m));
    },
    add(id, bootstrap = { voters: [], learners: [] }) {
      nodes.set(id, createRaftNode({ id, random: createPrng(nodes.size + 1), bootstrap, ...options }, empty));
      applied.set(id, []);
      reads.set(id, []);
    },
  };
  for (const id of ids) net.add(id, config);
  return net;
}

/** Ticks `among` and delivers until one of them leads. */
export function electLeader(net: TestNetwork, among: readonly string[] = net.ids, maxTicks = 200): string {
  for (let t = 0; t < maxTicks; t++) {
    net.tick(1, among);
    net.stabilize();
    const l = among.find((id) => net.node(id).status().role === "leader");
    if (l) return l;
  }
  throw new Error("no leader elected");
}

/** Like electLeader, but stops delivering the moment a leader exists (its no-op is still in flight). */
export function electLeaderUncommitted(net: TestNetwork, maxTicks = 200): string {
  for (let t = 0; t < maxTicks; t++) {
    net.tick();
    do {
      const l = net.ids.find((id) => net.node(id).status().role === "leader");
      if (l) return l;
    } while (net.deliverOne());
  }
  throw new Error("no leader elected");
}
