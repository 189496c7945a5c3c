// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// `mc admin kms` as the one place for KMS administration (issue 20), against
// one real KMS process started by the harness: policies, identities with
// their API keys, enclaves, keys with versions, status and metrics.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { identityOfSeed, newApiKey, parseApiKey } from "@mc/kms";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitFor } from "../harness/wait-for.js";
import { runKmsCli } from "../kms/kms-harness.js";
import { line, mc, ok, startKmsForMc, stopKmsForMc, type Ctx } from "./kms-admin-fixture.js";
import { jsonLines, spawnMc } from "./mc-runner.js";

const test = suite<Ctx>("mc admin kms (one KMS process)");
test.before(startKmsForMc);
test.after(stopKmsForMc);

test("Found 1+3: a restricted identity made only through mc: app-* works, db-1 is denied, the key knows itself, deletion ends it", async (ctx) => {
  const allow = ["/v1/key/create/app-*", "/v1/key/generate/app-*", "/v1/key/decrypt/app-*"];
  ok(await mc(ctx, ["admin", "kms", "policy", "create", "kms", "app-keys", ...allow.flatMap((p) => ["--allow", p])]));
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "policy", "show", "kms", "app-keys", "--json"]))), { status: "success", policy: "app-keys", allow, deny: [] });
  assert.is(ok(await mc(ctx, ["admin", "kms", "policy", "list", "kms"])).stdout, "app-keys\n");
  assert.match(ok(await mc(ctx, ["admin", "kms", "policy", "info", "kms", "app-keys"])).stdout, /^Policy: app-keys\nCreatedAt: \S+\nCreatedBy: h1:/);

  const created = line(ok(await mc(ctx, ["admin", "kms", "identity", "create", "kms", "--policy", "app-keys", "--json"])));
  const apiKey = String(created["apiKey"]);
  const identity = String(created["identity"]);
  assert.match(apiKey, /^k1:/);
  assert.match(identity, /^h1:/);
  assert.equal(created["policies"], ["app-keys"]);
  ok(await mc(ctx, ["alias", "set", "app", ctx.url, "--api-key", apiKey]));
  assert.ok(ok(await mc(ctx, ["admin", "kms", "identity", "list", "kms"])).stdout.split("\n").includes(identity));

  // Found 3: the key's own identity, without naming it and without describe rights.
  const self = line(ok(await mc(ctx, ["admin", "kms", "identity", "info", "app", "--json"])));
  assert.is(self["identity"], identity);
  assert.equal(self["policies"], ["app-keys"]);
  assert.equal(self["allow"], [...allow].sort());
  assert.match(ok(await mc(ctx, ["admin", "kms", "identity", "info", "app"])).stdout, new RegExp(`^Policies: app-keys\nIdentity: ${identity}\nIsAdmin: false\n`));

  ok(await mc(ctx, ["admin", "kms", "key", "create", "app", "app-1"]));
  assert.is(ok(await mc(ctx, ["admin", "kms", "key", "status", "app", "app-1"])).stdout, "Key: app-1\n   - Encryption ✔\n   - Decryption ✔\n");
  const denied = await mc(ctx, ["admin", "kms", "key", "create", "app", "db-1"]);
  assert.is(denied.code, 1);
  assert.is(denied.stderr, "mc: <ERROR> Failed to create master key `db-1`. not authorized: insufficient permissions.\n");
  const deniedJson = await mc(ctx, ["admin", "kms", "key", "create", "app", "db-1", "--json"]);
  assert.is(deniedJson.code, 1);
  assert.is((line(deniedJson)["error"] as { cause: { message: string } }).cause.message, "not authorized: insufficient permissions");

  ok(await mc(ctx, ["admin", "kms", "identity", "delete", "kms", identity]));
  const gone = await mc(ctx, ["admin", "kms", "key", "status", "app", "app-1"]);
  assert.is(gone.code, 1);
  assert.match(gone.stdout, /Encryption ✗ \(not authorized: insufficient permissions\)/);
  const info = await mc(ctx, ["admin", "kms", "identity", "info", "kms", identity]);
  assert.is(info.code, 1);
  assert.match(info.stderr, /identity does not exist/);
  ok(await mc(ctx, ["admin", "kms", "key", "delete", "kms", "app-1"]));
  ok(await mc(ctx, ["admin", "kms", "policy", "delete", "kms", "app-keys"]));
  assert.is(ok(await mc(ctx, ["admin", "kms", "policy", "list", "kms"])).stdout, "");
});

test("Found 3: identity info without IDENTITY shows the caller's own identity, even one that may not describe identities", async (ctx) => {
  const key = newApiKey();
  const id = identityOfSeed(parseApiKey(key) ?? new Uint8Array(0));
  const root = await ctx.node.client();
  try {
    await root.call("POST", "/v1/policy/create/list-only", { allow: ["/v1/key/list/*"], deny: [] });
    await root.call("POST", `/v1/identity/create/${id}`, { policy: "list-only" });
  } finally {
    root.close();
  }
  ok(await mc(ctx, ["alias", "set", "narrow", ctx.url, "--api-key", key]));
  const self = await mc(ctx, ["admin", "kms", "identity", "info", "narrow"]);
  assert.is(self.code, 0, self.stderr);
  assert.is(self.stdout.split("\n").slice(0, 3).join("\n"), `Policies: list-only\nIdentity: ${id}\nIsAdmin: false`);
  assert.match(self.stdout, /\nAllow: \/v1\/key\/list\/\*\nDeny: \n$/);
  // Naming another identity still needs the right to describe it.
  const other = await mc(ctx, ["admin", "kms", "identity", "info", "narrow", id]);
  assert.is(other.code, 1);
  assert.match(other.stderr, /not authorized: insufficient permissions/);
});

test("mTLS identities keep working: a client certificate's identity, registered through mc, used by an alias with that certificate", async (ctx) => {
  const cert = join(ctx.root, "svc.crt");
  const key = join(ctx.root, "svc.key");
  await promisify(execFile)("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", cert, "-subj", "/CN=billing service", "-days", "2"]);
  const of = await runKmsCli(["identity", "of", cert]);
  assert.is(of.code, 0, of.stderr);
  const id = of.stdout.trim();
  assert.match(id, /^h1:[A-Za-z0-9_-]{43}$/);
  ok(await mc(ctx, ["admin", "kms", "policy", "create", "kms", "svc-keys", "--allow", "/v1/key/generate/svc-*", "--allow", "/v1/key/decrypt/svc-*"]));
  ok(await mc(ctx, ["admin", "kms", "key", "create", "kms", "svc-1"]));
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "identity", "create", "kms", id, "--policy", "svc-keys", "--json"]))), { status: "success", identity: id, policies: ["svc-keys"], isAdmin: false });
  assert.equal(line(ok(await mc(ctx, ["alias", "set", "svc", ctx.url, "--client-cert", cert, "--client-key", key, "--json"]))), { status: "success", alias: "svc", URL: ctx.url, path: "auto", clientCert: cert, clientKey: key });
  assert.match(ok(await mc(ctx, ["alias", "list", "svc"])).stdout, new RegExp(`\n  ClientCert: ${cert}\n  ClientKey : ${key}\n`));
  assert.is(line(ok(await mc(ctx, ["admin", "kms", "identity", "info", "svc", "--json"])))["identity"], id);
  assert.is(ok(await mc(ctx, ["admin", "kms", "key", "status", "svc", "svc-1"])).stdout, "Key: svc-1\n   - Encryption ✔\n   - Decryption ✔\n");
  const denied = await mc(ctx, ["admin", "kms", "key", "create", "svc", "svc-2"]);
  assert.is(denied.code, 1);
  assert.is(denied.stderr, "mc: <ERROR> Failed to create master key `svc-2`. not authorized: insufficient permissions.\n");
  const half = await mc(ctx, ["alias", "set", "half", ctx.url, "--client-cert", cert]);
  assert.is(half.code, 1);
  assert.match(half.stderr, /--client-cert and --client-key go together/);
});

test("enclaves: a key created in one enclave is not found from another", async (ctx) => {
  ok(await mc(ctx, ["admin", "kms", "enclave", "create", "kms", "tenant-a"]));
  assert.equal(jsonLines(ok(await mc(ctx, ["admin", "kms", "enclave", "list", "kms", "--json"])).stdout).map((l) => l["enclave"]), ["default", "other", "tenant-a"]);
  assert.match(ok(await mc(ctx, ["admin", "kms", "enclave", "info", "kms", "tenant-a"])).stdout, /^Enclave: tenant-a\n/);
  ok(await mc(ctx, ["admin", "kms", "key", "create", "kms", "secret-a", "--enclave", "tenant-a"]));
  ok(await mc(ctx, ["admin", "kms", "key", "status", "kms", "secret-a", "-e", "tenant-a"]));
  const other = await mc(ctx, ["admin", "kms", "key", "info", "kms", "secret-a", "--enclave", "other"]);
  assert.is(other.code, 1);
  assert.is(other.stderr, "mc: <ERROR> Failed to describe master key `secret-a`. key does not exist.\n");
  const status = await mc(ctx, ["admin", "kms", "key", "status", "kms", "secret-a"]);
  assert.is(status.code, 1);
  assert.match(status.stdout, /Encryption ✗ \(key does not exist\)/);
  assert.is(ok(await mc(ctx, ["admin", "kms", "key", "list", "kms", "secret-*"])).stdout, "");
  ok(await mc(ctx, ["admin", "kms", "enclave", "delete", "kms", "tenant-a"]));
  assert.match((await mc(ctx, ["admin", "kms", "enclave", "info", "kms", "tenant-a"])).stderr, /enclave does not exist/);
});

test("keys: import from stdin, info with versions, rotate, delete one version, delete", async (ctx) => {
  ok(await mc(ctx, ["admin", "kms", "key", "import", "kms", "imported"], `${Buffer.alloc(32, 9).toString("base64")}\n`));
  const bad = await mc(ctx, ["admin", "kms", "key", "import", "kms", "short", "AAAA"]);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /invalid key size/);
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "key", "info", "kms", "imported", "--json"]))).versions, [1]);
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "key", "rotate", "kms", "imported", "--json"]))), { status: "success", keyId: "imported", version: 2 });
  assert.match(ok(await mc(ctx, ["admin", "kms", "key", "info", "kms", "imported"])).stdout, /^Key: imported\nVersion: 2\nVersions: 1, 2\nAlgorithm: XCHACHA20-POLY1305\n/);
  ok(await mc(ctx, ["admin", "kms", "key", "delete", "kms", "imported", "--version", "1"]));
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "key", "info", "kms", "imported", "--json"]))).versions, [2]);
  ok(await mc(ctx, ["admin", "kms", "key", "status", "kms", "imported"]));
  ok(await mc(ctx, ["admin", "kms", "key", "delete", "kms", "imported"]));
  assert.match((await mc(ctx, ["admin", "kms", "key", "info", "kms", "imported"])).stderr, /key does not exist/);
});

test("status and metrics of a single node", async (ctx) => {
  const s = line(ok(await mc(ctx, ["admin", "kms", "status", "kms", "--json"])));
  assert.is(s["authoritative"], true);
  const nodes = s["nodes"] as { role: string; up: boolean }[];
  assert.is(nodes.length, 1);
  assert.is(nodes[0]?.role, "leader");
  assert.match(ok(await mc(ctx, ["admin", "kms", "status", "kms"])).stdout, /^leader \S+ {2}term \d+ {2}commit \d+ {2}\(as seen by the leader /);
  const m = line(ok(await mc(ctx, ["admin", "kms", "metrics", "kms", "--once", "--json"])));
  assert.is(m["leader"], true);
  assert.ok(Number((m["requests"] as { total: number }).total) > 0);
  assert.match(ok(await mc(ctx, ["admin", "kms", "metrics", "kms", "--once"])).stdout, /^● {2}https:\/\/127\.0\.0\.1:\d+\n {3}Raft: {5}leader, term \d+/);
  // Live: refreshes until interrupted (two refreshes seen, then Ctrl-C: 130).
  const live = spawnMc(["-C", ctx.configDir, "admin", "kms", "metrics", "kms", "--interval", "0.2"]);
  let out = "";
  live.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  await waitFor(() => (out.match(/Raft:/g) ?? []).length >= 2, { what: "two refreshes", timeoutMs: 15000 });
  const code = new Promise<number | null>((resolve) => live.once("close", resolve));
  live.kill("SIGINT");
  assert.is(await code, 130);
});

test.run();
