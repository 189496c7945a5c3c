// run-all: alone (it measures elections, failover or 2 s visibility, which a busy neighbour would distort)
// Found 4 of issue 20: `kms cluster status` against a follower used to print
// the follower's own view (the leader and the other peer `up no`,
// `applied -1`). From any node it now prints the leader's view, asked of the
// leader; with no leader it says that this node cannot know, and why.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKmsClient, identityOfSeed, newApiKey, parseApiKey, type KmsClient } from "@mc/kms";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startNatsServer, type NatsNode } from "../harness/nats-server.js";
import { writeServerCerts } from "../harness/tls-certs.js";
import { waitFor } from "../harness/wait-for.js";
import { agreedLeader, apiKeyOf, idOf, startMember, waitReady, writeClusterConfigs, type Member } from "./cluster-harness.js";
import { runKmsCli } from "./kms-harness.js";

interface Ctx {
  dir: string;
  nats: NatsNode | undefined;
  caFile: string;
  members: Member[];
  apiKey: string;
  clients: KmsClient[];
}

const test = suite<Ctx>("kms cluster status (3 processes)", { dir: "", nats: undefined, caFile: "", members: [], apiKey: "", clients: [] });

test.before(async (ctx) => {
  ctx.dir = await mkdtemp(join(tmpdir(), "kms-cluster-status-"));
  ctx.nats = await startNatsServer();
  const certs = await writeServerCerts(join(ctx.dir, "certs"));
  ctx.caFile = certs.caFile;
  const ca = await readFile(certs.caFile);
  ctx.members = await writeClusterConfigs(ctx.dir, 3, ctx.nats.url, certs);
  for (const m of ctx.members) startMember(m);
  for (const m of ctx.members) await waitReady(ca, m, 60000);
  ctx.apiKey = apiKeyOf(ctx.members) ?? "";
  ctx.clients = await Promise.all(ctx.members.map((m) => createKmsClient({ server: m.host, ca, apiKey: ctx.apiKey })));
});

test.after(async (ctx) => {
  for (const c of ctx.clients) c.close();
  for (const m of ctx.members) await m.proc?.kill();
  await ctx.nats?.stop();
  await rm(ctx.dir, { recursive: true, force: true });
});

const status = (ctx: Ctx, m: Member) => runKmsCli(["cluster", "status", "--server", m.host], { KMS_API_KEY: ctx.apiKey, KMS_CA: ctx.caFile });
/** The node rows of the table: id → [host, role, up, applied, lag, rtt, last contact]. */
const rows = (stdout: string): Map<string, string[]> =>
  new Map(stdout.split("\n").slice(2).filter((l) => l.includes("\t")).map((l) => l.split("\t")).map(([id = "", ...rest]) => [id, rest]));

test("every node, followers included, prints the leader's view: all up, each member's applied index as the member itself reports it", async (ctx) => {
  const leader = await agreedLeader(ctx.clients);
  await ctx.clients[0]?.call("POST", "/v1/key/create/status-probe", {});
  // The cluster is idle after the probe: every node's table must be the same, and match each member's own index.
  const { outs, own } = await waitFor(async () => {
    const all = await Promise.all(ctx.members.map((m) => status(ctx, m)));
    const mine = await Promise.all(ctx.clients.map((c) => c.call<{ applied_index: number; commit_index: number }>("GET", "/v1/status")));
    const applied = (stdout: string) => ctx.members.map((m) => rows(stdout).get(idOf(m))?.[3]).join(",");
    const same = all.every((r) => r.code === 0 && r.stdout.split("\n")[0]?.replace(/\(as seen by.*$/, "") === all[0]?.stdout.split("\n")[0]?.replace(/\(as seen by.*$/, "") && applied(r.stdout) === applied(all[0]?.stdout ?? ""));
    return same && applied(all[0]?.stdout ?? "") === mine.map((x) => String(x.applied_index)).join(",") ? { outs: all, own: mine } : undefined;
  }, { what: "the same table from every node, matching each member's own applied index", timeoutMs: 20000 });
  for (const [i, m] of ctx.members.entries()) {
    const r = outs[i];
    assert.ok(r);
    assert.ok(r.stdout.startsWith(`leader ${leader.id}  term ${leader.term}  commit ${own[i]?.commit_index ?? "?"}  `), r.stdout);
    const table = rows(r.stdout);
    assert.equal([...table.keys()].sort(), ctx.members.map(idOf).sort());
    for (const [id, [, role, up, applied]] of table) {
      assert.is(up, "yes", `${m.host}: ${id} is up`);
      assert.is(Number(applied), own[ctx.members.findIndex((x) => idOf(x) === id)]?.applied_index, `${m.host}: applied index of ${id}`);
      assert.is(role, id === leader.id ? "leader" : "follower", `${m.host}: role of ${id}`);
    }
    assert.match(r.stdout.split("\n")[0] ?? "", /\(as seen by the leader /);
    assert.not.match(r.stdout, /note:/);
  }
});

test("a caller the leader refuses gets the refusal, not a follower's guess", async (ctx) => {
  const leader = await agreedLeader(ctx.clients);
  const key = newApiKey();
  await ctx.clients[0]?.call("POST", "/v1/policy/create/status-only", { allow: ["/v1/status"], deny: [] });
  await ctx.clients[0]?.call("POST", `/v1/identity/create/${identityOfSeed(parseApiKey(key) ?? new Uint8Array(0))}`, { policy: "status-only" });
  const follower = ctx.members.find((m) => idOf(m) !== leader.id);
  assert.ok(follower);
  const r = await runKmsCli(["cluster", "status", "--server", follower.host], { KMS_API_KEY: key, KMS_CA: ctx.caFile });
  assert.is(r.code, 1, r.stdout);
  assert.is(r.stderr, "kms: not authorized: insufficient permissions\n");
});

test("with the leader killed the survivors name the new leader; alone, a node says it cannot know and why", async (ctx) => {
  const first = await agreedLeader(ctx.clients);
  const old = ctx.members.find((m) => idOf(m) === first.id);
  assert.ok(old);
  await old.proc?.kill();
  const survivors = ctx.members.filter((m) => m !== old);
  const second = await agreedLeader(survivors.map((m) => ctx.clients[ctx.members.indexOf(m)] as KmsClient), first.id);
  for (const m of survivors) {
    const r = await waitFor(async () => {
      const s = await status(ctx, m);
      return s.stdout.startsWith(`leader ${second.id}  `) && rows(s.stdout).get(first.id)?.[2] === "no" ? s : undefined;
    }, { what: `${m.host} to show the new leader with the old one down`, timeoutMs: 15000 });
    assert.is(r.code, 0);
  }
  // One node left of three: no leader anywhere, so no node can give the cluster view.
  const last = survivors.find((m) => idOf(m) !== second.id) ?? survivors[0];
  assert.ok(last);
  await survivors.find((m) => m !== last)?.proc?.kill();
  const alone = await waitFor(async () => {
    const s = await status(ctx, last);
    return s.stdout.includes("note: ") ? s : undefined;
  }, { what: "the lone node to say it cannot know", timeoutMs: 15000 });
  assert.is(alone.code, 0, alone.stderr);
  assert.match(alone.stdout, new RegExp(`note: this node \\(${idOf(last)}, [a-z_]+.*cannot know the other members' state`));
  const table = rows(alone.stdout);
  assert.is(table.get(idOf(last))?.[2], "yes");
  for (const m of ctx.members.filter((x) => x !== last)) assert.is(table.get(idOf(m))?.[2], "?", `${idOf(m)}: unknown, not "no"`);
});

test.run();
