// Issue 27, item 1: a 3-node cluster must not hold elections when nothing
// fails. Taking a snapshot (every 10,000 entries) once blocked every node's
// event loop and ready loop for most of a second, long enough for heartbeats
// to miss the 150–300 ms election timeout. 50,000 creations cross the
// snapshot interval five times; the election counter must not move.
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createKmsClient, type KmsClient } from "@mc/kms";
import { startNatsServer, type NatsNode } from "../harness/nats-server.js";
import { writeServerCerts, type CertFiles } from "../harness/tls-certs.js";
import { agreedLeader, apiKeyOf, startMember, waitReady, writeClusterConfigs, type Member } from "./cluster-harness.js";

interface Ctx {
  dir: string;
  nats: NatsNode | undefined;
  certs: CertFiles | undefined;
  ca: Buffer;
  members: Member[];
}

const total = 50_000;
// Enough requests in flight to finish in about a minute on two cores.
const concurrency = 48;

const snapshots = suite<Ctx>("kms cluster: snapshots hold no elections", { dir: "", nats: undefined, certs: undefined, ca: Buffer.alloc(0), members: [] });

snapshots.before(async (ctx) => {
  ctx.dir = await mkdtemp(join(tmpdir(), "kms-snap-elections-"));
  ctx.nats = await startNatsServer();
  ctx.certs = await writeServerCerts(join(ctx.dir, "certs"));
  ctx.ca = await readFile(ctx.certs.caFile);
  ctx.members = await writeClusterConfigs(ctx.dir, 3, ctx.nats.url, ctx.certs);
});

snapshots.after(async (ctx) => {
  for (const m of ctx.members) await m.proc?.kill();
  await ctx.nats?.stop();
  await rm(ctx.dir, { recursive: true, force: true });
});

/** The public metrics page of a node (no client certificate needed). */
function metricsOf(m: Member, ca: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: m.port, path: "/v1/health/metrics", ca, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve(text));
    });
    req.on("error", reject);
    req.end();
  });
}

async function electionsOf(m: Member, ca: Buffer): Promise<number> {
  const line = /^consens_elections (\d+)$/m.exec(await metricsOf(m, ca));
  if (!line) throw new Error(`${m.host} reports no consens_elections`);
  return Number(line[1]);
}

/**
 * The index of the node's Raft snapshot, from the clear header of
 * raft/snapshot.bin (u64 at byte 32 in every blob format): neither the REST
 * nor the Connect status reports it. Replaced atomically, so a running node's
 * file is always whole.
 */
async function snapshotIndexOf(m: Member): Promise<number> {
  const file = await open(join(dirname(m.configFile), "data", "raft", "snapshot.bin"), "r").catch(() => undefined);
  if (!file) return 0;
  try {
    const header = Buffer.alloc(40);
    await file.read(header, 0, 40, 0);
    return Number(header.readBigUInt64BE(32));
  } finally {
    await file.close();
  }
}

snapshots(`should hold no election while ${total} creations cross the snapshot interval`, async (ctx) => {
  const { members, ca } = ctx;
  for (const m of members) startMember(m);
  for (const m of members) await waitReady(ca, m);
  const apiKey = apiKeyOf(members);
  assert.ok(apiKey, "a first start prints the root API key");
  const clients = await Promise.all(members.map((m) => createKmsClient({ server: m.host, ca, apiKey })));
  try {
    await agreedLeader(clients);
    const before = await Promise.all(members.map((m) => electionsOf(m, ca)));
    const started = Date.now();
    let next = 0;
    let created = 0;
    const failures: string[] = [];
    const worker = async (w: number): Promise<void> => {
      // Spread over all three nodes: two of them forward to the leader.
      const c = clients[w % clients.length] as KmsClient;
      while (next < total) {
        const name = `k-${next++}`;
        const res = await c.send("POST", `/v1/key/create/${name}`, {}).catch((err: unknown) => err);
        if (res instanceof Error || (res as { status: number }).status !== 200) {
          if (failures.length < 5) failures.push(`${name}: ${res instanceof Error ? res.message : (res as { status: number }).status}`);
        } else created++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
    const seconds = (Date.now() - started) / 1000;
    const after = await Promise.all(members.map((m) => electionsOf(m, ca)));
    const indexes = await Promise.all(members.map(snapshotIndexOf));
    process.stdout.write(`  ${created} creations in ${seconds.toFixed(1)} s; elections before ${before.join("/")}, after ${after.join("/")}; snapshot indexes ${indexes.join("/")}\n`);
    assert.equal(after, before, "no node saw an election while snapshots were taken");
    assert.equal(failures, [], "every creation succeeds");
    for (const [i, index] of indexes.entries()) assert.ok(index >= 40_000, `${members[i]?.host} snapshotted past entry 40,000 (at ${index})`);
  } finally {
    for (const c of clients) c.close();
  }
});

snapshots.run();
