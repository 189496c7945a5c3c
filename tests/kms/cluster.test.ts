// run-all: alone (it measures elections, failover or 2 s visibility, which a busy neighbour would distort)
// A 3-node KMS cluster as real processes over a real nats-server: kill -9 the
// leader during a stream of key creations, a new leader takes over, and once
// the old node returns every acknowledged creation is on all three nodes.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createKmsClient, type KmsClient } from "@mc/kms";
import { freePort } from "../harness/free-port.js";
import { writeServerCerts } from "../harness/tls-certs.js";
import { waitFor } from "../harness/wait-for.js";
import { agreedLeader, apiKeyOf, idOf, startMember as start, statusOf, tlsAnswers, waitReady, emptyClusterCtx, setUpCluster, tearDownCluster, type ClusterCtx, type Member } from "./cluster-harness.js";
import { getStatus, runKmsCli } from "./kms-harness.js";

const cluster = suite<ClusterCtx>("kms cluster (3 processes over nats-server)", emptyClusterCtx());

cluster.before((ctx) => setUpCluster(ctx, "kms-cluster-", 3));

cluster.after(tearDownCluster);

const ready = (ctx: ClusterCtx, m: Member): Promise<void> => waitReady(ctx.ca, m);

/** Starts a non-member node from `yaml` (a member's config moved to a new port, then `edit`ed), runs `check`, stops it. */
async function withExtraNode(ctx: ClusterCtx, yaml: string, name: string, edit: (yaml: string, self: string) => string, check: (m: Member) => Promise<void>): Promise<void> {
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const hostLine = /^ {2}host: (.*)$/m.exec(yaml)?.[1] ?? "";
  await mkdir(join(ctx.dir, name), { recursive: true });
  const m: Member = { port, host, configFile: join(ctx.dir, name, "kms.yaml"), proc: undefined };
  await writeFile(m.configFile, edit(yaml.replaceAll(hostLine, host), host));
  try {
    start(m);
    await waitFor(() => tlsAnswers(port), { what: `${name} listening`, timeoutMs: 20000 });
    await check(m);
  } finally {
    await m.proc?.kill();
  }
}

cluster("should keep every acknowledged creation on all nodes across a kill -9 of the leader", async (ctx) => {
  const { members, ca } = ctx;
  for (const m of members) start(m);
  for (const m of members) await ready(ctx, m);
  const apiKey = apiKeyOf(members);
  assert.ok(apiKey, "a first start prints the root API key");
  const clients = await Promise.all(members.map((m) => createKmsClient({ server: m.host, ca, apiKey })));
  try {
    const first = await agreedLeader(clients);
    const leader = members.find((m) => idOf(m) === first.id);
    assert.ok(leader, `leader ${first.id} is a member`);
    const followers = members.filter((m) => m !== leader).map((m) => clients[members.indexOf(m)] as KmsClient);

    // A write on a follower is forwarded and answered after it is applied there.
    await followers[0]?.call("POST", "/v1/key/create/first", {});
    const described = await followers[0]?.call<{ name: string; versions: number[] }>("GET", "/v1/key/describe/first");
    assert.equal(described?.versions, [1]);

    const acked: string[] = ["first"];
    let next = 0;
    let stopAt = Number.POSITIVE_INFINITY;
    const worker = async (w: number): Promise<void> => {
      while (Date.now() < stopAt) {
        const name = `k-${next++}`;
        const c = followers[w % followers.length] as KmsClient;
        const res = await c.send("POST", `/v1/key/create/${name}`, {}).catch(() => undefined);
        if (res?.status === 200) acked.push(name);
        else await new Promise((r) => setTimeout(r, 20));
      }
    };
    const workers = [0, 1, 2, 3].map(worker);
    await waitFor(() => acked.length >= 60, { what: "60 acknowledged creations", timeoutMs: 20000 });
    const killedAt = Date.now();
    await leader?.proc?.kill();
    const liveClients = members.filter((m) => m !== leader).map((m) => clients[members.indexOf(m)] as KmsClient);
    const second = await agreedLeader(liveClients, first.id);
    const failoverMs = Date.now() - killedAt;
    assert.ok(second.term > first.term, "the new leader has a higher term");
    const before = acked.length;
    await waitFor(() => acked.length >= before + 40, { what: "creations under the new leader", timeoutMs: 15000 });
    stopAt = Date.now();
    await Promise.all(workers);

    // The old leader returns and catches up.
    if (leader) {
      start(leader);
      await ready(ctx, leader);
    }
    for (const [i, c] of clients.entries()) {
      const listed = new Set((await c.call<{ names: string[] }>("GET", "/v1/key/list/*")).names);
      const missing = acked.filter((n) => !listed.has(n));
      assert.equal(missing, [], `node ${members[i]?.host} lists every acknowledged key`);
      for (const name of acked) {
        const res = await c.send("GET", `/v1/key/describe/${name}`);
        assert.is(res.status, 200, `${name} on ${members[i]?.host}`);
      }
    }
    // Crypto stays local, and key material sealed on one node opens on another.
    const g = await clients[0]?.generate("first", new Uint8Array([1]));
    const d = await clients[2]?.decrypt("first", g?.ciphertext ?? "", new Uint8Array([1]));
    assert.is(d?.plaintext, g?.plaintext);
    process.stdout.write(`  cluster: ${acked.length} acknowledged creations, failover ${failoverMs} ms\n`);
  } finally {
    for (const c of clients) c.close();
  }
});

cluster("should step a paused leader down on SIGCONT, never two leaders in one term, and refuse writes without a majority", async (ctx) => {
  const { members, ca } = ctx;
  for (const m of members) await ready(ctx, m);
  // The restarted node did not print the key again; the other two did on their first start.
  const apiKey = apiKeyOf(members);
  assert.ok(apiKey);
  const clients = await Promise.all(members.map((m) => createKmsClient({ server: m.host, ca, apiKey })));
  const leaderOfTerm = new Map<number, string>();
  const conflicts: string[] = [];
  let watching = true;
  const watch = (async () => {
    while (watching) {
      for (const s of await Promise.all(clients.map(statusOf))) {
        if (s?.role !== "leader") continue;
        const seen = leaderOfTerm.get(s.term);
        if (seen !== undefined && seen !== s.node_id) conflicts.push(`term ${s.term}: ${seen} and ${s.node_id}`);
        leaderOfTerm.set(s.term, s.node_id);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    const first = await agreedLeader(clients);
    const old = members.find((m) => idOf(m) === first.id);
    const oldClient = clients[members.indexOf(old as Member)] as KmsClient;
    const others = clients.filter((c) => c !== oldClient);
    old?.proc?.child.kill("SIGSTOP");
    const second = await agreedLeader(others, first.id);
    assert.ok(second.term > first.term);
    await others[0]?.call("POST", "/v1/key/create/during-pause", {});
    old?.proc?.child.kill("SIGCONT");
    // The old leader learns the higher term and follows the new leader.
    await waitFor(
      async () => {
        const s = await statusOf(oldClient);
        return s !== undefined && s.role !== "leader" && s.leader_id !== "" && s.leader_id !== first.id;
      },
      { what: "the old leader stepping down", timeoutMs: 10000, intervalMs: 20 },
    );
    await oldClient.call("POST", "/v1/key/create/after-pause", {});
    assert.is((await oldClient.send("GET", "/v1/key/describe/during-pause")).status, 200);

    // Ready for writes: a follower reaches a leader with a majority.
    for (const m of members) assert.is(await getStatus(m.port, "/v1/health/ready?write", ca), 200, `${m.host} ready for writes`);

    // Two of three paused: no majority, so writes and linearizable reads answer 503 while crypto works.
    const leaderNow = await agreedLeader(clients);
    const lone = members.find((m) => idOf(m) === leaderNow.id) as Member;
    const loneClient = clients[members.indexOf(lone)] as KmsClient;
    const paused = members.filter((m) => m !== lone);
    for (const m of paused) m.proc?.child.kill("SIGSTOP");
    try {
      const refused = await waitFor(
        async () => {
          const res = await loneClient.send("POST", "/v1/key/create/no-majority", {});
          return res.status === 503 ? JSON.parse(res.body.toString()) as { message: string } : undefined;
        },
        { what: "503 without a majority", timeoutMs: 20000, intervalMs: 50 },
      );
      assert.is(refused.message, "cluster has no leader");
      const read = await loneClient.send("GET", "/v1/key/describe/after-pause");
      assert.is(read.status, 503);
      assert.is((await loneClient.send("GET", "/v1/key/describe/after-pause?stale=true")).status, 200);
      const g = await loneClient.generate("after-pause", new Uint8Array([2]));
      assert.is((await loneClient.decrypt("after-pause", g.ciphertext, new Uint8Array([2]))).plaintext, g.plaintext);
      assert.is(await getStatus(lone.port, "/v1/health/ready", ca), 503);
      assert.is(await getStatus(lone.port, "/v1/health/ready?write", ca), 503);
    } finally {
      for (const m of paused) m.proc?.child.kill("SIGCONT");
    }
    await agreedLeader(clients);
    watching = false;
    await watch;
    assert.equal(conflicts, [], "at most one leader per term");
  } finally {
    watching = false;
    await watch;
    for (const c of clients) c.close();
  }
});

cluster("should add a fresh fourth node through /v1/cluster/add and remove it again", async (ctx) => {
  const { members, ca } = ctx;
  for (const m of members) await ready(ctx, m);
  const apiKey = apiKeyOf(members) ?? "";
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const nodeDir = join(ctx.dir, "n4");
  await mkdir(nodeDir, { recursive: true });
  const first = await readFile(members[0]?.configFile ?? "", "utf8");
  const yaml = first.replace(/^address: .*$/m, `address: ${host}`).replace(/^ {2}host: .*$/m, `  host: ${host}`);
  const joiner: Member = { port, host, configFile: join(nodeDir, "kms.yaml"), proc: undefined };
  await writeFile(joiner.configFile, yaml);
  const root = await createKmsClient({ server: members[0]?.host ?? "", ca, apiKey });
  try {
    start(joiner);
    await waitFor(() => joiner.proc?.output().includes("kms: server not part of cluster"), { what: "the not-a-member line", timeoutMs: 20000 });
    // Once its port is open it answers, but not ready: no leader has contacted it.
    assert.is(await waitFor(() => getStatus(port, "/v1/health/ready", ca).catch(() => undefined), { what: "the joiner listening", timeoutMs: 20000 }), 503);

    const unreachable = `127.0.0.1:${await freePort()}`;
    const refused = await root.send("POST", "/v1/cluster/add", { host: unreachable });
    assert.is(refused.status, 400);
    assert.is((JSON.parse(refused.body.toString()) as { message: string }).message, `kms: cannot join cluster: node '${unreachable}' is not reachable`);

    // A node whose certificate names another host is refused before any change.
    const otherPort = await freePort();
    const other: Member = { port: otherPort, host: `127.0.0.1:${otherPort}`, configFile: join(ctx.dir, "n5", "kms.yaml"), proc: undefined };
    const otherCerts = await writeServerCerts(join(ctx.dir, "n5", "certs"), ["localhost"]);
    await writeFile(
      other.configFile,
      yaml
        .replaceAll(host, other.host)
        .replace(/^ {2}cert: .*$/m, `  cert: ${otherCerts.certFile}`)
        .replace(/^ {2}key: .*$/m, `  key: ${otherCerts.keyFile}`),
    );
    try {
      start(other);
      await waitFor(() => tlsAnswers(otherPort), { what: "the fifth node listening", timeoutMs: 20000 });
      const mismatch = await root.send("POST", "/v1/cluster/add", { host: other.host });
      assert.is(mismatch.status, 400);
      assert.is((JSON.parse(mismatch.body.toString()) as { message: string }).message, `kms: cannot join cluster: certificate of '${other.host}' does not match its address`);
    } finally {
      await other.proc?.kill();
    }

    // Same certificate, but another HSM key: refused by the configuration fingerprint (through the kms command).
    const cliEnv = { KMS_API_KEY: apiKey, KMS_CA: ctx.certs?.caFile ?? "" };
    const otherHsm = `  key: hsm:aes256:${Buffer.alloc(32, 9).toString("base64")}`;
    await withExtraNode(ctx, yaml, "n6", (y) => y.replace(/^ {2}key: hsm:.*$/m, otherHsm), async (extra) => {
      const r = await runKmsCli(["cluster", "add", extra.host, "--server", members[0]?.host ?? ""], cliEnv);
      assert.is(r.code, 1);
      assert.is(r.stderr.trim(), `kms: cannot join cluster: '${extra.host}' has a different HSM or enclave configuration`);
    });
    // Another enclave list changes the fingerprint too.
    await withExtraNode(ctx, yaml, "n7", (y) => y.replace(/^enclaves: .*$/m, "enclaves: [default, extra]"), async (extra) => {
      const r = await root.send("POST", "/v1/cluster/add", { host: extra.host });
      assert.is(r.status, 400);
      assert.match(r.body.toString(), "has a different HSM or enclave configuration");
    });
    // A node that founded a group of its own holds data: not empty.
    await withExtraNode(ctx, yaml, "n8", (y, self) => y.replace(/^ {2}nodes: .*$/m, `  nodes: [${self}]`), async (extra) => {
      await waitReady(ctx.ca, extra);
      const r = await root.send("POST", "/v1/cluster/add", { host: extra.host });
      assert.is(r.status, 400);
      assert.is((JSON.parse(r.body.toString()) as { message: string }).message, `kms: cannot join cluster: node '${extra.host}' is not empty`);
    });
    assert.is((await root.call<{ nodes: unknown[] }>("GET", "/v1/cluster/status")).nodes.length, 3, "no refused node was added");

    // Membership changes under load: creations keep flowing through another member meanwhile.
    const loadClient = await createKmsClient({ server: members[1]?.host ?? "", ca, apiKey });
    const acked: string[] = [];
    const failed: string[] = [];
    let loading = true;
    const load = (async () => {
      for (let i = 0; loading; i++) {
        const res = await loadClient.send("POST", `/v1/key/create/load-${i}`, {}).catch(() => undefined);
        if (res?.status === 200) acked.push(`load-${i}`);
        else failed.push(`load-${i}: ${res?.status ?? "network"}`);
      }
    })();
    // A failed step must not leave the load running past the test (it held the file for minutes).
    try {
      const added = await root.call<{ nodes: string[] }>("POST", "/v1/cluster/add", { host });
      assert.ok(added.nodes.includes(host));
      await ready(ctx, joiner);
      const joined = await createKmsClient({ server: host, ca, apiKey });
      try {
        assert.is((await joined.send("GET", "/v1/key/describe/first")).status, 200);
        await joined.call("POST", "/v1/key/create/from-the-new-node", {});
        assert.is((await root.send("GET", "/v1/key/describe/from-the-new-node")).status, 200);
        const status = await root.call<{ nodes: { id: string }[]; warnings: string[] }>("GET", "/v1/cluster/status");
        assert.is(status.nodes.length, 4);
        assert.ok(status.warnings.some((w) => w.includes("even")), "an even voter count is warned about");
        await waitFor(() => members.some((m) => m.proc?.output().includes("kms: cluster warning: 4 voters: an even count")), { what: "the even-count warning in a log", timeoutMs: 15000 });
      } finally {
        joined.close();
      }
      // The same through the kms command.
      const status = await runKmsCli(["cluster", "status", "--server", members[1]?.host ?? ""], cliEnv);
      assert.is(status.code, 0, status.stderr);
      assert.ok(status.stdout.startsWith("leader "), status.stdout);
      assert.ok(status.stdout.includes(host), "the new node is listed");
      const removed = await runKmsCli(["cluster", "remove", host, "--server", members[1]?.host ?? ""], cliEnv);
      assert.is(removed.code, 0, removed.stderr);
      assert.not.ok(removed.stdout.includes(host), removed.stdout);
      assert.ok(removed.stdout.includes(members[0]?.host ?? "-"));
      await root.call("POST", "/v1/key/create/after-removal", {});
    } finally {
      loading = false;
      await load;
      loadClient.close();
    }
    assert.equal(failed, [], "no creation failed during add and remove");
    assert.ok(acked.length > 10, `creations ran during the changes (${acked.length})`);
    const listed = new Set((await root.call<{ names: string[] }>("GET", "/v1/key/list/load-*")).names);
    assert.equal(acked.filter((n) => !listed.has(n)), [], "every creation under load is kept");
  } finally {
    root.close();
    await joiner.proc?.kill();
  }
});

cluster.run();
