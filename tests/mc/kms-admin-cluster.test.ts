// run-all: alone (it measures elections, failover or 2 s visibility, which a busy neighbour would distort)
// `mc admin kms` against a 3-node KMS cluster: a restricted identity made
// only through mc works on every node and stops working on every node once
// deleted (REST and Connect from this process too, with no mc start-up in between),
// enclave isolation from every node, and `log --audit` of a member.
import { connect as tlsConnect } from "node:tls";
import { clientCertificateOf, identityOfSeed, newApiKey, parseApiKey, type KmsClient } from "@mc/kms";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitFor } from "../harness/wait-for.js";
import { agreedLeader, idOf } from "../kms/cluster-harness.js";
import { alias, emptyClusterMcCtx, mc, ok, startClusterForMc, stopClusterForMc, type ClusterMcCtx } from "./kms-admin-cluster-fixture.js";
import { jsonLines, spawnMc } from "./mc-runner.js";

const test = suite<ClusterMcCtx>("mc admin kms (3-node cluster)", emptyClusterMcCtx());
test.before((ctx) => startClusterForMc(ctx, "mc-kms-cluster-"));
test.after(stopClusterForMc);

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
  for (const i of [0, 1, 2]) {
    const r = await mc(ctx, ["admin", "kms", "key", "status", alias("app", i), "app-1"]);
    assert.is(r.code, 1, `node ${i + 1}: ${r.stdout}`);
    assert.match(r.stdout, /Encryption ✗ \(not authorized: insufficient permissions\)/);
  }
});

/**
 * One request on a TLS connection opened now: `write` hands the request to
 * the kernel (resolves when it is there), `answer` is the status line and
 * body. Lets a request wait in a stopped process's socket.
 */
async function rawRequest(host: string, ca: Buffer, key: string): Promise<{ write(path: string, body: string): Promise<void>; answer: Promise<string> }> {
  const cert = await clientCertificateOf(parseApiKey(key) ?? new Uint8Array(0));
  const [name = "", port = ""] = host.split(":");
  const socket = tlsConnect({ host: name, port: Number(port), ca, cert: cert.cert, key: cert.key, checkServerIdentity: () => undefined });
  await new Promise<void>((resolve, reject) => socket.once("secureConnect", resolve).once("error", reject));
  const chunks: Buffer[] = [];
  socket.on("data", (c: Buffer) => chunks.push(c));
  const answer = new Promise<string>((resolve) => socket.once("close", () => {
    const text = Buffer.concat(chunks).toString();
    resolve(`${/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? "?"}: ${text.slice(text.indexOf("\r\n\r\n") + 4)}`);
  }));
  const write = (path: string, body: string) => new Promise<void>((resolve, reject) =>
    socket.write(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`, (err) => (err ? reject(err) : resolve())),
  );
  return { write, answer };
}

test("revocation holds on every follower the moment the delete is answered, even on one that missed it (REST and Connect)", async (ctx) => {
  const leader = await agreedLeader(ctx.clients);
  const li = ctx.members.findIndex((m) => idOf(m) === leader.id);
  const root = ctx.clients[li] as KmsClient;
  const followers = ctx.members.filter((_, i) => i !== li);
  await root.call("POST", "/v1/policy/create/rev", { allow: ["/v1/key/generate/rev-*"], deny: [] });
  await root.call("POST", "/v1/key/create/rev-1", {});
  const edges = [
    { edge: "REST", path: "/v1/key/generate/rev-1", body: "{}", denied: '403: {"message":"not authorized: insufficient permissions"}' },
    { edge: "Connect", path: "/kms.v1.KeyService/Generate", body: '{"name":"rev-1"}', denied: '403: {"code":"permission_denied","message":"not authorized: insufficient permissions"}' },
  ];
  for (const { edge, path, body, denied } of edges) {
    // Two rounds used at once on every follower, then one with a follower stopped while the delete commits and is answered.
    for (let round = 0; round < 3; round++) {
      const frozen = round === 2 ? followers[0] : undefined;
      const key = newApiKey();
      const identity = identityOfSeed(parseApiKey(key) ?? new Uint8Array(0));
      await root.call("POST", `/v1/identity/create/${identity}`, { policy: "rev" });
      const warm = await Promise.all(followers.map((m) => rawRequest(m.host, ctx.ca, key)));
      await Promise.all(warm.map((r) => r.write(path, body)));
      assert.equal((await Promise.all(warm.map((r) => r.answer))).map((a) => a.slice(0, 4)), followers.map(() => "200:"), `${edge}: the identity works before`);
      const users = await Promise.all((frozen ? [frozen] : followers).map((m) => rawRequest(m.host, ctx.ca, key)));
      try {
        frozen?.proc?.child.kill("SIGSTOP");
        await root.call("DELETE", `/v1/identity/delete/${identity}`);
        // A stopped follower finds the request waiting beside the log entries it missed.
        await Promise.all(users.map((u) => u.write(path, body)));
        frozen?.proc?.child.kill("SIGCONT");
        assert.equal(await Promise.all(users.map((u) => u.answer)), users.map(() => denied), `round ${round} (${edge}${frozen ? ", a follower stopped" : ""})`);
      } finally {
        frozen?.proc?.child.kill("SIGCONT");
      }
    }
  }
});

test("enclaves: a key created in one enclave through one node is not found from another enclave on any node", async (ctx) => {
  await agreedLeader(ctx.clients);
  ok(await mc(ctx, ["admin", "kms", "enclave", "create", "n2", "tenant-a"]));
  ok(await mc(ctx, ["admin", "kms", "key", "create", "n1", "secret-a", "--enclave", "tenant-a"]));
  assert.match(ok(await mc(ctx, ["admin", "kms", "key", "info", "n3", "secret-a", "-e", "tenant-a"])).stdout, /^Key: secret-a\n/);
  for (const i of [0, 1, 2]) {
    const other = await mc(ctx, ["admin", "kms", "key", "info", alias("n", i), "secret-a", "--enclave", "default"]);
    assert.is(other.code, 1, `node ${i + 1}`);
    assert.is(other.stderr, "mc: <ERROR> Failed to describe master key `secret-a`. key does not exist.\n");
  }
  assert.is(ok(await mc(ctx, ["admin", "kms", "key", "list", "n2", "secret-*"])).stdout, "");
  ok(await mc(ctx, ["admin", "kms", "enclave", "delete", "n1", "tenant-a"]));
  assert.match((await mc(ctx, ["admin", "kms", "key", "info", "n2", "secret-a", "-e", "tenant-a"])).stderr, /enclave does not exist/);
});

test("log --audit on a member: its own requests as they happen, with identities, and no data key, plaintext or ciphertext", async (ctx) => {
  await agreedLeader(ctx.clients);
  const follower = spawnMc(["-C", ctx.configDir, "admin", "kms", "log", "n2", "--audit", "--json"]);
  let out = "";
  follower.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  const closed = new Promise<number | null>((resolve) => follower.once("close", resolve));
  let probes = 0;
  await waitFor(async () => {
    ok(await mc(ctx, ["admin", "kms", "key", "list", "n2", `probe-${probes++}-*`]));
    return out.includes("/v1/key/list/probe-");
  }, { what: "the audit stream of n2 to carry a probe", timeoutMs: 20000 });
  const n2 = ctx.clients[1] as KmsClient;
  await n2.call("POST", "/v1/key/create/audited", {});
  const g = await n2.generate("audited", new Uint8Array([1, 2]));
  const d = await n2.decrypt("audited", g.ciphertext, new Uint8Array([1, 2]));
  assert.is(d.plaintext, g.plaintext);
  await waitFor(() => out.includes("/v1/key/decrypt/audited"), { what: "the decrypt in n2's audit stream", timeoutMs: 15000 });
  const records = jsonLines(out) as { request: { path: string; identity: string; enclave: string }; response: { code: number } }[];
  const gen = records.find((r) => r.request.path === "/v1/key/generate/audited");
  assert.ok(gen, out);
  assert.is(gen.request.identity, n2.identity);
  assert.is(gen.response.code, 200);
  for (const secret of [g.plaintext, g.ciphertext, ctx.apiKey, ctx.apiKey.slice(3)]) assert.not.ok(out.includes(secret), "no key material or API key in the audit stream");
  follower.kill("SIGINT");
  assert.is(await closed, 130);
});

test.run();
