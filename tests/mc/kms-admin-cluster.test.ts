// run-all: alone (it measures elections, failover or 2 s visibility, which a busy neighbour would distort)
// `mc admin kms` against a 3-node KMS cluster (real processes over a real
// nats-server): a restricted identity made only through mc works on every
// node and stops working on every node once deleted; `status` from each node
// shows the same leader and indexes, and after the leader is killed the
// survivors show the new one.
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKmsClient, type KmsClient } from "@mc/kms";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startNatsServer, type NatsNode } from "../harness/nats-server.js";
import { writeServerCerts } from "../harness/tls-certs.js";
import { waitFor } from "../harness/wait-for.js";
import { agreedLeader, apiKeyOf, idOf, startMember, waitReady, writeClusterConfigs, type Member } from "../kms/cluster-harness.js";
import { jsonLines, runMc, type McResult } from "./mc-runner.js";

interface Ctx {
  dir: string;
  configDir: string;
  nats: NatsNode | undefined;
  members: Member[];
  clients: KmsClient[];
}

interface StatusJson {
  leader: string;
  term: number;
  commitIndex: number;
  authoritative: boolean;
  nodes: { id: string; role: string; up: boolean | null; appliedIndex: number | null }[];
}

const test = suite<Ctx>("mc admin kms (3-node cluster)", { dir: "", configDir: "", nats: undefined, members: [], clients: [] });
const mc = (ctx: Ctx, args: readonly string[]): Promise<McResult> => runMc(["-C", ctx.configDir, ...args]);
const ok = (r: McResult): McResult => {
  assert.is(r.code, 0, `${r.stderr}${r.stdout}`);
  return r;
};
const alias = (prefix: string, i: number): string => `${prefix}${i + 1}`;

test.before(async (ctx) => {
  ctx.dir = await mkdtemp(join(tmpdir(), "mc-kms-cluster-"));
  ctx.configDir = join(ctx.dir, "mc");
  ctx.nats = await startNatsServer();
  const certs = await writeServerCerts(join(ctx.dir, "certs"));
  const ca = await readFile(certs.caFile);
  ctx.members = await writeClusterConfigs(ctx.dir, 3, ctx.nats.url, certs);
  for (const m of ctx.members) startMember(m);
  for (const m of ctx.members) await waitReady(ca, m);
  const apiKey = apiKeyOf(ctx.members) ?? "";
  ctx.clients = await Promise.all(ctx.members.map((m) => createKmsClient({ server: m.host, ca, apiKey })));
  for (const [i, m] of ctx.members.entries()) ok(await mc(ctx, ["alias", "set", alias("n", i), `https://${m.host}`, "--api-key", apiKey]));
  await copyFile(certs.caFile, join(ctx.configDir, "certs", "CAs", "kms.crt"));
});

test.after(async (ctx) => {
  for (const c of ctx.clients) c.close();
  for (const m of ctx.members) await m.proc?.kill();
  await ctx.nats?.stop();
  await rm(ctx.dir, { recursive: true, force: true });
});

test("a restricted identity made only through mc: works on every node, denied outside its policy, gone everywhere once deleted", async (ctx) => {
  await agreedLeader(ctx.clients);
  const allow = ["/v1/key/create/app-*", "/v1/key/generate/app-*", "/v1/key/decrypt/app-*"].flatMap((p) => ["--allow", p]);
  ok(await mc(ctx, ["admin", "kms", "policy", "create", "n2", "app-keys", ...allow]));
  const created = jsonLines(ok(await mc(ctx, ["admin", "kms", "identity", "create", "n3", "--policy", "app-keys", "--json"])).stdout)[0] ?? {};
  const apiKey = String(created["apiKey"]);
  const identity = String(created["identity"]);
  for (const [i, m] of ctx.members.entries()) ok(await mc(ctx, ["alias", "set", alias("app", i), `https://${m.host}`, "--api-key", apiKey]));
  ok(await mc(ctx, ["admin", "kms", "key", "create", "app2", "app-1"]));
  for (const i of [0, 1, 2]) {
    assert.is(ok(await mc(ctx, ["admin", "kms", "key", "status", alias("app", i), "app-1"])).stdout, "Key: app-1\n   - Encryption ✔\n   - Decryption ✔\n");
  }
  const denied = await mc(ctx, ["admin", "kms", "key", "create", "app1", "db-1"]);
  assert.is(denied.code, 1);
  assert.is(denied.stderr, "mc: <ERROR> Failed to create master key `db-1`. not authorized: insufficient permissions.\n");

  ok(await mc(ctx, ["admin", "kms", "identity", "delete", "n1", identity]));
  // No waiting: the next request on each node is refused.
  for (const i of [0, 1, 2]) {
    const r = await mc(ctx, ["admin", "kms", "key", "status", alias("app", i), "app-1"]);
    assert.is(r.code, 1, `node ${i + 1}: ${r.stdout}`);
    assert.match(r.stdout, /Encryption ✗ \(not authorized: insufficient permissions\)/);
  }
});

test("status from each node: the same leader and indexes; with the leader killed the survivors show the new leader", async (ctx) => {
  const first = await agreedLeader(ctx.clients);
  const views = await waitFor(async () => {
    const all = await Promise.all([0, 1, 2].map(async (i) => JSON.parse(ok(await mc(ctx, ["admin", "kms", "status", alias("n", i), "--json"])).stdout) as StatusJson));
    // An idle cluster: one leader's view, whichever node was asked.
    return all.every((v) => v.leader === first.id && v.authoritative && v.commitIndex === all[0]?.commitIndex) ? all : undefined;
  }, { what: "the same view from every node", timeoutMs: 15000 });
  for (const v of views) {
    assert.equal(v.nodes.map((n) => n.id).sort(), ctx.members.map(idOf).sort());
    assert.ok(v.nodes.every((n) => n.up === true && typeof n.appliedIndex === "number" && n.appliedIndex > 0), JSON.stringify(v.nodes));
  }
  const old = ctx.members.find((m) => idOf(m) === first.id);
  assert.ok(old);
  await old.proc?.kill();
  const survivors = ctx.members.map((m, i) => ({ m, i })).filter(({ m }) => m !== old);
  await waitFor(async () => {
    const all = await Promise.all(survivors.map(async ({ i }) => JSON.parse((await mc(ctx, ["admin", "kms", "status", alias("n", i), "--json"])).stdout) as StatusJson));
    const leader = all[0]?.leader;
    return leader !== undefined && leader !== first.id && all.every((v) => v.leader === leader && v.authoritative && v.nodes.find((n) => n.id === first.id)?.up === false);
  }, { what: "the survivors to show the new leader", timeoutMs: 20000 });
  const text = ok(await mc(ctx, ["admin", "kms", "status", alias("n", survivors[0]?.i ?? 0)]));
  assert.match(text.stdout, new RegExp(`\n${first.id}\t\\S+\t\\S+\tno\t`));
});

test.run();
