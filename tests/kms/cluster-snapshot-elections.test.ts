// run-all: alone (it measures elections, failover or 2 s visibility, which a busy neighbour would distort)
// Issue 27, item 1: a 3-node cluster must not hold elections when nothing
// fails. Taking a snapshot once blocked every node's event loop and ready
// loop for most of a second, long enough for heartbeats to miss the 150–300
// ms election timeout. Below 800,000 keys a member snapshots every 50,000
// entries (clusterSnapshotFloor), the three members a third of that apart and
// the first no sooner than half of it: 75,000 creations make every member
// take one while writes flow (at entries 25,000, 33,334 and 50,000); the
// election counter must not move.
import { open } from "node:fs/promises";
import { request } from "node:https";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createKmsClient, type KmsClient } from "@mc/kms";
import { agreedLeader, apiKeyOf, startMember, waitReady, emptyClusterCtx, setUpCluster, tearDownCluster, type ClusterCtx, type Member } from "./cluster-harness.js";

const total = 75_000;
// Enough requests in flight to finish in about a minute on two cores.
const concurrency = 48;

const snapshots = suite<ClusterCtx>("kms cluster: snapshots hold no elections", emptyClusterCtx());

snapshots.before((ctx) => setUpCluster(ctx, "kms-snap-elections-", 3));

snapshots.after(tearDownCluster);

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

/**
 * Elections (term increases) and pre-vote rounds: with pre-vote a node that
 * misses heartbeats first polls its peers, and a round they refuse moves no
 * term, so consens_elections alone would not show it.
 */
async function electionsOf(m: Member, ca: Buffer): Promise<{ elections: number; preVotes: number }> {
  const text = await metricsOf(m, ca);
  const value = (name: string): number => {
    const line = new RegExp(`^${name} (\\d+)$`, "m").exec(text);
    if (!line) throw new Error(`${m.host} reports no ${name}`);
    return Number(line[1]);
  };
  return { elections: value("consens_elections"), preVotes: value("kms_raft_prevotes_started") };
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
  // Each member reports any timer delay that is not whole milliseconds (snapshot pacing made them).
  for (const m of members) startMember(m, ["--require", fileURLToPath(new URL("../harness/whole-timers.cjs", import.meta.url))]);
  // Generous: three processes starting at once on a busy 2-core machine take a while.
  for (const m of members) await waitReady(ca, m, 60000);
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
    const show = (xs: { elections: number; preVotes: number }[], k: "elections" | "preVotes"): string => xs.map((x) => x[k]).join("/");
    process.stdout.write(
      `  ${created} creations in ${seconds.toFixed(1)} s; elections before ${show(before, "elections")}, after ${show(after, "elections")}; ` +
        `pre-vote rounds before ${show(before, "preVotes")}, after ${show(after, "preVotes")}; snapshot indexes ${indexes.join("/")}\n`,
    );
    assert.equal(after.map((x) => x.elections), before.map((x) => x.elections), "no node saw an election while snapshots were taken");
    assert.equal(after.map((x) => x.preVotes), before.map((x) => x.preVotes), "no node started a pre-vote round while snapshots were taken");
    assert.equal(failures, [], "every creation succeeds");
    for (const m of members) assert.not.match(m.proc?.output() ?? "", "fractional timer delay", `${m.host} set a timer of a fractional delay`);
    // While writes flow a member paces its snapshot (a quarter of a core); the last one due,
    // at entry 50,000, has 25,000 more creations' time to finish.
    for (const [i, index] of indexes.entries()) assert.ok(index >= 25_000, `${members[i]?.host} took a snapshot while writes flowed (its latest at entry ${index})`);
  } finally {
    for (const c of clients) c.close();
  }
});

snapshots.run();
