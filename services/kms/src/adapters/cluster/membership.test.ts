// addMember's checks on an in-memory bus, with a tiny TLS listener per node on
// loopback standing in for each node's edge (only its certificate is probed).
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "@mc/shared/errors";
import { createMemoryBroker } from "@mc/shared/bus";
import { initCrypto } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { ClusterConfig } from "../../config/config.js";
import { createDevCa } from "../tls/dev-certs.js";
import { startClusterNode, type ClusterNode } from "./cluster-node.js";
import { addMember } from "./membership.js";

const test = suite<{ dir: string; listeners: Server[] }>("kms cluster membership checks", { dir: "", listeners: [] });

test.before(async (ctx) => {
  await initCrypto();
  ctx.dir = await mkdtemp(join(tmpdir(), "kms-membership-"));
});
test.after(async (ctx) => {
  for (const l of ctx.listeners) l.close();
  await rm(ctx.dir, { recursive: true, force: true });
});

async function freeLoopbackPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

const reasonOf = async (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => "ok",
    (e: unknown) => (e instanceof AppError ? `${e.reason}: ${e.message}` : String(e)),
  );

test("should refuse an eighth node with 409 after every other check passed, and a node with another fingerprint first", async (ctx) => {
  const ca = await createDevCa();
  const pair = await ca.issueServer(["127.0.0.1"]);
  const ports: number[] = [];
  for (let i = 0; i < 9; i++) {
    const port = await freeLoopbackPort();
    const server = createTlsServer({ cert: pair.cert, key: pair.key }, (socket) => socket.end());
    await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
    ctx.listeners.push(server);
    ports.push(port);
  }
  const hosts = ports.map((p) => `127.0.0.1:${p}`);
  const founders = hosts.slice(0, 7);
  const broker = createMemoryBroker();
  const start = (host: string, fingerprint: string, i: number): Promise<ClusterNode> => {
    const cluster: ClusterConfig = { nats: "memory", id: "limits", host, nodes: founders };
    return startClusterNode({ cluster, dataDir: join(ctx.dir, `n${i}`), rootKey: new Uint8Array(32).fill(3), log: () => undefined, bus: broker.connect(), fingerprint, version: "test" });
  };
  const nodes = await Promise.all(founders.map((h, i) => start(h, "same", i)));
  const eighth = await start(hosts[7] ?? "", "same", 7);
  const stranger = await start(hosts[8] ?? "", "other", 8);
  try {
    await nodes[0]?.propose({ kind: "createEnclave", name: "default" }, "");
    const leader = nodes.find((n) => n.status().role === "leader") as ClusterNode;
    assert.is(await reasonOf(addMember(leader, hosts[8] ?? "")), `failed_precondition: kms: cannot join cluster: '${hosts[8]}' has a different HSM or enclave configuration`);
    assert.is(await reasonOf(addMember(leader, hosts[7] ?? "")), "already_exists: kms: cannot join cluster: cluster already has 7 nodes");
    assert.is(leader.status().configuration.voters.length, 7, "nothing was added");
    assert.ok(eighth.describe().empty && !eighth.describe().member);
  } finally {
    for (const n of [...nodes, eighth, stranger]) await n.close().catch(() => undefined);
  }
});

test.run();
