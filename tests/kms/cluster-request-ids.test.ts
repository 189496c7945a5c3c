// run-all: alone (it measures elections, failover or 2 s visibility, which a busy neighbour would distort)
// Issue 27, exactly-once creates on real processes, deterministically: a
// create whose first attempt ends "504 outcome unknown" although it was
// applied, retried with its request id, answers 200 (not 409) and the key
// exists once.
//
// How the first attempt is made ambiguous: both followers are paused
// (SIGSTOP), so the leader appends the create but cannot commit it and
// answers 504 after its 5 s deadline. Then one follower resumes: whichever
// of the two is elected, the entry commits with the new term's no-op,
// because a leader needs the other's vote and so a log at least as long
// (either the old leader's, or the follower's once the appends that waited
// for it while it was paused carried the entry in). Only then does the other
// follower resume and the retry go out.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createKmsClient, type KmsClient } from "@mc/kms";
import { agreedLeader, apiKeyOf, emptyClusterCtx, idOf, setUpCluster, startMember, tearDownCluster, waitReady, type ClusterCtx, type Member } from "./cluster-harness.js";

const outcomeUnknown = "outcome unknown: the change may have been applied; retry with the same request id";

const ids = suite<ClusterCtx>("kms cluster: a retried create after an unknown outcome applies once", emptyClusterCtx());

ids.before((ctx) => setUpCluster(ctx, "kms-cluster-request-ids-", 3));
ids.after(tearDownCluster);

const answer = async (c: KmsClient, path: string, id: string): Promise<[number, string]> => {
  const res = await c.send("POST", path, {}, { "kms-request-id": id });
  const text = res.body.toString("utf8");
  return [res.status, text === "" ? "" : ((JSON.parse(text) as { message?: string }).message ?? text)];
};

ids("should answer 200, not 409, to a create retried with its request id after a 504 for a write that was applied", async (ctx) => {
  const { members, ca } = ctx;
  for (const m of members) startMember(m);
  // Generous: three processes starting at once on a busy 2-core machine take a while.
  for (const m of members) await waitReady(ca, m, 60000);
  const apiKey = apiKeyOf(members);
  assert.ok(apiKey, "a first start prints the root API key");
  const clients = await Promise.all(members.map((m) => createKmsClient({ server: m.host, ca, apiKey })));
  const paused = new Set<Member>();
  const pause = (m: Member): void => {
    m.proc?.child.kill("SIGSTOP");
    paused.add(m);
  };
  const resume = (m: Member): void => {
    m.proc?.child.kill("SIGCONT");
    paused.delete(m);
  };
  try {
    const leaderId = (await agreedLeader(clients)).id;
    const at = members.findIndex((m) => idOf(m) === leaderId);
    const leader = clients[at] as KmsClient;
    const [first, second] = members.filter((_, i) => i !== at) as [Member, Member];
    const firstClient = clients[members.indexOf(first)] as KmsClient;

    pause(first);
    pause(second);
    const started = Date.now();
    assert.equal(await answer(leader, "/v1/key/create/ambiguous", "amb-1"), [504, outcomeUnknown], "no majority: the outcome is unknown");
    process.stdout.write(`  first attempt answered 504 after ${Date.now() - started} ms\n`);

    resume(first);
    await agreedLeader([leader, firstClient]);
    assert.is((await leader.send("GET", "/v1/key/describe/ambiguous")).status, 200, "the first attempt was applied after all");
    resume(second);
    await waitReady(ca, second, 60000);

    // The retry goes through a follower (forwarded to the leader); its request id finds the first outcome.
    assert.equal(await answer(firstClient, "/v1/key/create/ambiguous", "amb-1"), [200, ""], "the retry answers the first outcome");
    assert.equal(await answer(leader, "/v1/key/create/ambiguous", "amb-1"), [200, ""], "and so does any later repeat");
    assert.equal(await answer(leader, "/v1/key/create/ambiguous", "amb-2"), [409, "key already exists"], "a new request conflicts");
    const described = await leader.call<{ versions: number[] }>("GET", "/v1/key/describe/ambiguous");
    assert.equal(described.versions, [1], "created once");
    const listed = await firstClient.call<{ names: string[] }>("GET", "/v1/key/list/ambiguous*");
    assert.equal(listed.names, ["ambiguous"]);
  } finally {
    for (const m of paused) m.proc?.child.kill("SIGCONT");
    for (const c of clients) c.close();
  }
});

ids.run();
