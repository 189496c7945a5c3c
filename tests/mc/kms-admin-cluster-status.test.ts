// run-all: alone (it measures elections, failover or 2 s visibility, which a busy neighbour would distort)
// `mc admin kms status` and `mc admin kms cluster add|remove|status` against
// a 3-node KMS cluster: every node shows the same leader, term and indexes,
// each member's applied index as that member reports it; the join checks
// refuse as services/kms/README.md words them; a fresh node is added and
// removed; with the leader killed the survivors show the new leader.
import { copyFile, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { freePort } from "../harness/free-port.js";
import { waitFor } from "../harness/wait-for.js";
import { agreedLeader, idOf, statusOf, waitReady } from "../kms/cluster-harness.js";
import { alias, emptyClusterMcCtx, mc, ok, startClusterForMc, startExtraNode, stopClusterForMc, type ClusterMcCtx } from "./kms-admin-cluster-fixture.js";
import { recipeOf, runRecipe, writeShims } from "./kms-recipes.js";
import { jsonLines, repoRoot, runMc } from "./mc-runner.js";

interface StatusJson {
  leader: string;
  term: number;
  commitIndex: number;
  authoritative: boolean;
  nodes: { id: string; host: string; role: string; up: boolean | null; appliedIndex: number | null }[];
}

const test = suite<ClusterMcCtx>("mc admin kms status and cluster (3-node cluster)", emptyClusterMcCtx());
test.before((ctx) => startClusterForMc(ctx, "mc-kms-cluster-status-"));
test.after(stopClusterForMc);

const statusJson = async (ctx: ClusterMcCtx, i: number, args = ["status"]): Promise<StatusJson> =>
  JSON.parse(ok(await mc(ctx, ["admin", "kms", ...args, alias("n", i), "--json"])).stdout) as StatusJson;

test("status from each node: the same leader, term and commit index, and each member's applied index as the member itself reports it", async (ctx) => {
  const leader = await agreedLeader(ctx.clients);
  await ctx.clients[0]?.call("POST", "/v1/key/create/status-probe", {});
  // An idle cluster: one leader's view whichever node is asked, and every member caught up.
  const { views, own } = await waitFor(async () => {
    const all = await Promise.all([0, 1, 2].map((i) => statusJson(ctx, i, i === 1 ? ["cluster", "status"] : ["status"])));
    const mine = await Promise.all(ctx.clients.map(statusOf));
    const applied = (v: StatusJson) => ctx.members.map((m) => v.nodes.find((n) => n.id === idOf(m))?.appliedIndex);
    const same = all.every((v) => v.leader === leader.id && v.term === leader.term && v.authoritative && v.commitIndex === all[0]?.commitIndex && JSON.stringify(applied(v)) === JSON.stringify(applied(all[0] as StatusJson)));
    return same ? { views: all, own: mine as ({ applied_index?: number } | undefined)[] } : undefined;
  }, { what: "the same view from every node", timeoutMs: 30000 });
  const first = views[0] as StatusJson;
  for (const v of views) {
    assert.equal(v.nodes.map((n) => n.id).sort(), ctx.members.map(idOf).sort());
    assert.equal(v.nodes.map((n) => n.host).sort(), ctx.members.map((m) => m.host).sort());
    for (const n of v.nodes) {
      assert.is(n.up, true, n.id);
      assert.is(n.role, n.id === leader.id ? "leader" : "follower", n.id);
    }
  }
  for (const [i, m] of ctx.members.entries()) {
    const shown = first.nodes.find((n) => n.id === idOf(m))?.appliedIndex;
    assert.is(shown, first.commitIndex, `${m.host} applied everything committed`);
    assert.is(shown, own[i]?.applied_index, `${m.host}: the view's applied index is the member's own`);
  }
  const text = ok(await mc(ctx, ["admin", "kms", "cluster", "status", "n3"])).stdout;
  assert.ok(text.startsWith(`leader ${leader.id}  term ${leader.term}  commit ${first.commitIndex}  (as seen by the leader `), text);
});

test("cluster add refuses as services/kms/README.md words it (unreachable, another HSM key, a node with data); the docs' recipes add a fresh node and remove it", async (ctx) => {
  await agreedLeader(ctx.clients);
  const readme = await readFile(join(repoRoot, "services", "kms", "README.md"), "utf8");
  assert.not.match(readme, /not checked/i, "the README says which join checks run");
  const worded = (start: string): string => {
    const m = new RegExp(`\`(kms: cannot join cluster: ${start}[^\`]*)\``).exec(readme);
    assert.ok(m?.[1], `README words the refusal "${start}…"`);
    return m[1];
  };
  const refused = async (host: string, start: string): Promise<void> => {
    const r = await mc(ctx, ["admin", "kms", "cluster", "add", "n2", host]);
    assert.is(r.code, 1, r.stdout);
    assert.is(r.stderr, `mc: <ERROR> Failed to add node \`${host}\` to the KMS cluster. ${worded(start).replaceAll("<host>", host)}.\n`);
  };
  const gone = `127.0.0.1:${await freePort()}`;
  await refused(gone, "node '<host>' is not reachable");
  const otherHsm = await startExtraNode(ctx, "other-hsm", (y) => y.replace(/^ {2}key: hsm:.*$/m, `  key: hsm:aes256:${Buffer.alloc(32, 9).toString("base64")}`));
  try {
    await refused(otherHsm.host, "'<host>' has a different HSM or enclave configuration");
  } finally {
    await otherHsm.proc?.kill();
  }
  const withData = await startExtraNode(ctx, "with-data", (y, self) => y.replace(/^ {2}nodes: .*$/m, `  nodes: [${self}]`));
  try {
    await waitReady(ctx.ca, withData);
    await refused(withData.host, "node '<host>' is not empty");
  } finally {
    await withData.proc?.kill();
  }
  assert.is((await statusJson(ctx, 0)).nodes.length, 3, "no refused node was added");

  // The recipes of docs/operations.md "Adding and removing cluster nodes", verbatim, with the root alias `kms` on member 1.
  const home = join(ctx.dir, "recipes");
  await mkdir(home, { recursive: true });
  const bin = await writeShims(ctx.dir);
  ok(await runMc(["alias", "set", "kms", `https://${ctx.members[0]?.host ?? ""}`, "--api-key", ctx.apiKey], { env: { HOME: home } }));
  await copyFile(ctx.certs?.caFile ?? "", join(home, ".mc", "certs", "CAs", "kms.crt"));
  const fresh = await startExtraNode(ctx, "fresh");
  const recipe = async (name: string) => {
    const r = await runRecipe(await recipeOf("docs/operations.md", name), { home, cwd: home, bin, host: ctx.members[0]?.host ?? "", replace: { "kms4.example.net:7373": fresh.host } });
    assert.is(r.code, 0, `${name}: ${r.stderr}${r.stdout}`);
    return r.stdout;
  };
  try {
    const added = await recipe("kms-cluster-add");
    assert.ok(added.startsWith(`Added node \`${fresh.host}\` to the KMS cluster.\nMembers:\n`), added);
    for (const m of [...ctx.members, fresh]) assert.ok(added.includes(`\n  ${m.host}\n`), `${m.host} listed`);
    assert.match(added, /\nleader \S+ {2}term \d+ {2}commit \d+ {2}\(as seen by the leader /);
    await waitReady(ctx.ca, fresh);
    await waitFor(async () => (await statusJson(ctx, 0)).nodes.find((n) => n.host === fresh.host)?.up === true, { what: "the new member up in the status", timeoutMs: 20000 });
    // Adding a member again changes nothing and answers the members.
    const again = jsonLines(ok(await mc(ctx, ["admin", "kms", "cluster", "add", "n2", fresh.host, "--json"])).stdout)[0] ?? {};
    assert.equal({ ...again, nodes: (again["nodes"] as string[]).sort() }, { status: "success", host: fresh.host, nodes: [...ctx.members.map((m) => m.host), fresh.host].sort() });
    const removed = await recipe("kms-cluster-remove");
    assert.ok(removed.startsWith(`Removed node \`${fresh.host}\` from the KMS cluster.\nMembers:\n`), removed);
    assert.not.ok(removed.split("\n").slice(0, 5).includes(`  ${fresh.host}`));
    assert.equal((await statusJson(ctx, 1)).nodes.map((n) => n.host).sort(), ctx.members.map((m) => m.host).sort());
  } finally {
    await fresh.proc?.kill();
  }
  const notMember = await mc(ctx, ["admin", "kms", "cluster", "remove", "n1", fresh.host, "--json"]);
  assert.is(notMember.code, 1);
  assert.is((jsonLines(notMember.stdout)[0]?.["error"] as { cause: { message: string } }).cause.message, `kms: node '${fresh.host}' is not a member of the cluster`);
  const bad = await mc(ctx, ["admin", "kms", "cluster", "add", "n1", "https://kms4.example.net:7373"]);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /is not HOST:PORT/);
});

test("with the leader killed the survivors show the new leader and the old one down", async (ctx) => {
  const first = await agreedLeader(ctx.clients);
  const old = ctx.members.find((m) => idOf(m) === first.id);
  assert.ok(old);
  await old.proc?.kill();
  const survivors = ctx.members.map((m, i) => ({ m, i })).filter(({ m }) => m !== old);
  await waitFor(async () => {
    const all = await Promise.all(survivors.map(async ({ i }) => JSON.parse((await mc(ctx, ["admin", "kms", "status", alias("n", i), "--json"])).stdout) as StatusJson));
    const leader = all[0]?.leader;
    return leader !== undefined && leader !== first.id && all.every((v) => v.leader === leader && v.authoritative && v.nodes.find((n) => n.id === first.id)?.up === false);
  }, { what: "the survivors to show the new leader", timeoutMs: 30000 });
  const text = ok(await mc(ctx, ["admin", "kms", "status", alias("n", survivors[0]?.i ?? 0)]));
  assert.match(text.stdout, new RegExp(`\n${first.id}\t\\S+\t\\S+\tno\t`));
});

test.run();
