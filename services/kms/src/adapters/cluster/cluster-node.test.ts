import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryBroker, type Bus, type MemoryBroker } from "@mc/shared";
import { initCrypto } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { ClusterConfig } from "../../config/config.js";
import { encodeState } from "../storage/state-codec.js";
import { startClusterNode, type ClusterNode } from "./cluster-node.js";

const rootKey = new Uint8Array(32).fill(9);
const hosts = ["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"];
const test = suite<{ dir: string }>("kms cluster node (in-memory bus)", { dir: "" });

test.before(async (ctx) => {
  await initCrypto();
  ctx.dir = await mkdtemp(join(tmpdir(), "kms-cluster-node-"));
});
test.after(async (ctx) => {
  await rm(ctx.dir, { recursive: true, force: true });
});

const material = () => ({ sealedKey: new Uint8Array([1, 2, 3]), sealedHmacKey: new Uint8Array([4, 5, 6]) });

function start(broker: MemoryBroker, dir: string, i: number): Promise<ClusterNode> {
  return startOn(broker.connect(), dir, i);
}

function startOn(bus: Bus, dir: string, i: number): Promise<ClusterNode> {
  const cluster: ClusterConfig = { nats: "memory", id: "unit", host: hosts[i] ?? "", nodes: hosts };
  return startClusterNode({ cluster, dataDir: join(dir, `n${i}`), rootKey, log: () => undefined, bus, snapshotEvery: 20, fingerprint: "f", version: "test" });
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test("should replicate commands to every node and bring a lagging node back through a snapshot", async ({ dir }) => {
  const broker = createMemoryBroker();
  const nodes = await Promise.all([0, 1, 2].map((i) => start(broker, dir, i)));
  try {
    // A proposal gives up after two election timeouts without a leader: on a busy machine the first election can take that long.
    await until(() => nodes.some((n) => n.status().role === "leader") && nodes.every((n) => n.status().leaderId !== ""), "a leader known to all");
    assert.equal(await nodes[1]?.propose({ kind: "createEnclave", name: "default" }, ""), { ok: true });
    // A follower's and the leader's proposals alike resolve once applied on the proposing node.
    for (let k = 0; k < 30; k++) {
      const node = nodes[k % 3] as ClusterNode;
      const r = await node.propose({ kind: "createKey", enclave: "default", name: `k${k}`, algorithm: "X", material: material() }, "h1:test");
      assert.equal(r, { ok: true, version: 1 });
      assert.ok(node.state().enclaves.get("default")?.keys.has(`k${k}`));
    }
    const dup = await nodes[2]?.propose({ kind: "createKey", enclave: "default", name: "k0", algorithm: "X", material: material() }, "h1:test");
    assert.equal(dup, { ok: false, reason: "already_exists", message: "key already exists" });

    // Stop one node, write past a few snapshots, restart it: it catches up (snapshot or log).
    await nodes[2]?.close();
    for (let k = 30; k < 80; k++) await nodes[0]?.propose({ kind: "createKey", enclave: "default", name: `k${k}`, algorithm: "X", material: material() }, "h1:test");
    nodes[2] = await start(broker, dir, 2);
    await nodes[2].linearize();
    const keys = (n: ClusterNode | undefined) => [...(n?.state().enclaves.get("default")?.keys.keys() ?? [])].sort();
    assert.is(keys(nodes[2]).length, 80);
    await until(() => nodes.every((n) => n.status().appliedIndex === nodes[0]?.status().appliedIndex), "all nodes applied the same index");
    const states = nodes.map((n) => new TextDecoder().decode(encodeState(n.state())));
    assert.is(states[1], states[0]);
    assert.is(states[2], states[0]);
    assert.ok((nodes[0]?.status().snapshotIndex ?? 0) > 0, "the leader compacted its log");
  } catch (err) {
    // uvu prints nothing for our AppError (it reads `details`): rethrow as a plain Error.
    throw new Error(`${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}\n${err instanceof Error ? (err.stack ?? "") : ""}`);
  } finally {
    for (const n of nodes) await n.close().catch(() => undefined);
  }
});

/** A connection that drops the AppendEntries (and heartbeats) addressed to its node while `blocked` is set; all else passes. */
function appendsBlockable(bus: Bus): { bus: Bus; blocked: { on: boolean } } {
  const blocked = { on: false };
  const wrapped: Bus = {
    get maxPayload() {
      return bus.maxPayload;
    },
    publish: (subject, data, options) => bus.publish(subject, data, options),
    subscribe: (subject, handler, options) =>
      bus.subscribe(subject, (msg) => {
        if (blocked.on && msg.subject.startsWith("consensus.v1.ConsensusService.AppendEntries.")) return;
        handler(msg);
      }, options),
    newInbox: () => bus.newInbox(),
    flush: () => bus.flush(),
    onClose: (callback) => bus.onClose(callback),
    close: () => bus.close(),
  };
  return { bus: wrapped, blocked };
}

test("should answer a write whose entry reached the node inside a snapshot with its real outcome", async ({ dir }) => {
  const broker = createMemoryBroker();
  const cut = appendsBlockable(broker.connect());
  const sub = join(dir, "snapshot-outcome");
  const nodes = await Promise.all([0, 1, 2].map((i) => (i === 2 ? startOn(cut.bus, sub, i) : start(broker, sub, i))));
  try {
    await until(() => nodes.some((n) => n.status().role === "leader") && nodes.every((n) => n.status().leaderId !== ""), "a leader known to all");
    // The node whose appends are cut must not be the leader: hand leadership away from it first.
    if (nodes[2]?.status().role === "leader") await nodes[2].runner.transferLeadership();
    const leader = nodes.find((n) => n.status().role === "leader") as ClusterNode;
    const follower = nodes[2] as ClusterNode;
    await leader.propose({ kind: "createEnclave", name: "default" }, "");
    const key = (name: string) => ({ kind: "createKey", enclave: "default", name, algorithm: "X", material: material() }) as const;
    assert.equal(await leader.propose(key("dup"), "h1:test"), { ok: true, version: 1 });
    await until(() => follower.status().appliedIndex === leader.status().appliedIndex, "the follower caught up");

    cut.blocked.on = true;
    // Forwarded to the leader and committed there; this node learns of it only through a snapshot.
    const answer = follower.propose(key("dup"), "h1:test", "req-dup").catch((err: unknown) => err);
    const before = follower.status().appliedIndex;
    for (let k = 0; k < 45; k++) await leader.propose(key(`fill-${k}`), "h1:test");
    // Once the leader compacted past what the follower holds, only a snapshot can bring it up to date.
    await until(() => leader.status().snapshotIndex > before + 1, "the leader compacted its log");
    cut.blocked.on = false;
    await until(() => follower.status().snapshotIndex > before, "the follower restored a snapshot");
    assert.equal(await answer, { ok: false, reason: "already_exists", message: "key already exists" });
  } catch (err) {
    throw new Error(`${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}\n${err instanceof Error ? (err.stack ?? "") : ""}`);
  } finally {
    cut.blocked.on = false;
    for (const n of nodes) await n.close().catch(() => undefined);
  }
});

test.run();
