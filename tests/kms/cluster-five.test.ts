// run-all: alone (it measures elections, failover or 2 s visibility, which a busy neighbour would distort)
// A 5-node KMS cluster as real processes: leadership handed over through
// Connect, writes served with two nodes down, refused (503) with three down
// while crypto on existing keys still works, and full recovery afterwards.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createKmsClient, type KmsClient } from "@mc/kms";
import { NodeRole } from "@mc/kms/gen/kms/v1/cluster_pb.js";
import { waitFor } from "../harness/wait-for.js";
import { agreedLeader, apiKeyOf, connectCluster, idOf, startMember, statusOf, waitReady, emptyClusterCtx, setUpCluster, tearDownCluster, type ClusterCtx, type Member } from "./cluster-harness.js";
import { getStatus } from "./kms-harness.js";

const five = suite<ClusterCtx>("kms cluster (5 processes over nats-server)", emptyClusterCtx());

five.before((ctx) => setUpCluster(ctx, "kms-five-", 5));

five.after(tearDownCluster);

const message = (body: Buffer): string => (JSON.parse(body.toString()) as { message: string }).message;

five("should serve writes with two of five nodes down and refuse them with three down while crypto works", async (ctx) => {
  const { members, ca } = ctx;
  for (const m of members) startMember(m);
  for (const m of members) await waitReady(ca, m, 60000);
  const apiKey = apiKeyOf(members);
  assert.ok(apiKey, "a first start prints the root API key");
  const clients = await Promise.all(members.map((m) => createKmsClient({ server: m.host, ca, apiKey })));
  const clientOf = (m: Member): KmsClient => clients[members.indexOf(m)] as KmsClient;
  try {
    const first = await agreedLeader(clients);
    await clientOf(members[0] as Member).call("POST", "/v1/key/create/before", {});

    // DescribeNode and TransferLeadership over Connect (root only).
    const target = members.find((m) => idOf(m) !== first.id) as Member;
    const rpc = await connectCluster(members[0] as Member, ca, apiKey);
    const described = await rpc.describeNode({});
    assert.is(described.host, members[0]?.host);
    assert.ok(described.member && !described.empty);
    assert.match(described.configFingerprint, /^[0-9a-f]{64}$/);
    const moved = await rpc.transferLeadership({ host: target.host });
    assert.is(moved.host, target.host);
    const second = await agreedLeader(clients);
    assert.is(second.id, idOf(target));
    assert.ok(second.term > first.term);
    const status = await rpc.getClusterStatus({});
    assert.is(status.nodes.find((n) => n.host === target.host)?.role, NodeRole.LEADER);

    // Two down, the leader among them: the other three elect and keep writing.
    const leader = target;
    const [downA, downB] = [leader, members.find((m) => m !== leader) as Member];
    await downA.proc?.kill();
    await downB.proc?.kill();
    const live = members.filter((m) => m !== downA && m !== downB);
    await agreedLeader(live.map(clientOf), idOf(leader));
    const written: string[] = [];
    for (let i = 0; i < 20; i++) {
      const c = clientOf(live[i % live.length] as Member);
      await c.call("POST", `/v1/key/create/two-down-${i}`, {});
      written.push(`two-down-${i}`);
    }
    for (const m of live) assert.is(await getStatus(m.port, "/v1/health/ready?write", ca), 200);

    // Three down: no majority. Writes answer 503 with the contract's message; crypto stays local.
    const downC = live[0] as Member;
    await downC.proc?.kill();
    const left = live.slice(1);
    for (const m of left) {
      const refused = await waitFor(
        async () => {
          const res = await clientOf(m).send("POST", "/v1/key/create/no-majority", {});
          return res.status === 503 ? res : undefined;
        },
        { what: `503 from ${m.host}`, timeoutMs: 20000, intervalMs: 50 },
      );
      assert.is(message(refused.body), "cluster has no leader");
      // The first refusals can be indeterminate (a leader that appended the entry lost its majority
      // before committing it: Raft may still commit it later). Once no leader is left, a write is
      // refused before it reaches any log, and it must never appear.
      await waitFor(async () => (await Promise.all(left.map((x) => statusOf(clientOf(x))))).every((st) => st !== undefined && st.role !== "leader"), {
        what: "no leader among the two left",
        timeoutMs: 10000,
        intervalMs: 50,
      });
      const definite = await clientOf(m).send("POST", `/v1/key/create/refused-${m.port}`, {});
      assert.is(definite.status, 503);
      assert.is(message(definite.body), "cluster has no leader");
      assert.is(await getStatus(m.port, "/v1/health/ready?write", ca), 503);
      for (const key of ["before", "two-down-7"]) {
        const g = await clientOf(m).generate(key, new Uint8Array([5]));
        assert.is((await clientOf(m).decrypt(key, g.ciphertext, new Uint8Array([5]))).plaintext, g.plaintext, `${key} on ${m.host}`);
      }
    }

    // Everyone back: one leader, every acknowledged key on all five, the refused one nowhere.
    for (const m of [downA, downB, downC]) startMember(m);
    for (const m of members) await waitReady(ca, m, 60000);
    await agreedLeader(clients);
    for (const m of members) {
      const names = new Set((await clientOf(m).call<{ names: string[] }>("GET", "/v1/key/list/*")).names);
      assert.equal(["before", ...written].filter((n) => !names.has(n)), [], `every acknowledged key on ${m.host}`);
      for (const r of left) assert.not.ok(names.has(`refused-${r.port}`), `the refused write is not on ${m.host}`);
    }
  } finally {
    for (const c of clients) c.close();
  }
});

five.run();
