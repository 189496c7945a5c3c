// `mc admin kms` as the one place for KMS administration (issue 20), against
// one real KMS process started by the harness: policies, identities with
// their API keys, enclaves, keys with versions, status, metrics, the audit
// stream, and the docs' recipes run verbatim.
import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { identityOfSeed, newApiKey, parseApiKey } from "@mc/kms";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitFor } from "../harness/wait-for.js";
import { createFixture, runKms, type KmsFixture, type RunningKms } from "../kms/kms-harness.js";
import { recipeOf, runRecipe, writeShims } from "./kms-recipes.js";
import { cleanEnv, jsonLines, mcBin, runMc, spawnMc, type McResult } from "./mc-runner.js";

interface Ctx {
  root: string;
  configDir: string;
  fx: KmsFixture;
  node: RunningKms;
  url: string;
  bin: string;
}

const test = suite<Ctx>("mc admin kms (one KMS process)");
const mc = (ctx: Ctx, args: readonly string[], input?: string): Promise<McResult> => runMc(["-C", ctx.configDir, ...args], input === undefined ? {} : { input });
const ok = (r: McResult): McResult => {
  assert.is(r.code, 0, `${r.stderr}${r.stdout}`);
  return r;
};
const line = (r: McResult): Record<string, unknown> => jsonLines(r.stdout)[0] ?? {};

test.before(async (ctx) => {
  ctx.root = await mkdtemp(join(tmpdir(), "mc-kms-admin-"));
  ctx.configDir = join(ctx.root, "home", ".mc");
  ctx.fx = await createFixture("software");
  ctx.node = await runKms(ctx.fx);
  ctx.url = `https://127.0.0.1:${ctx.fx.port}`;
  ctx.bin = await writeShims(ctx.root);
  ok(await mc(ctx, ["alias", "set", "kms", ctx.url, "--api-key", ctx.node.rootApiKey ?? ""]));
  await copyFile(ctx.fx.certs.caFile, join(ctx.configDir, "certs", "CAs", "kms.crt"));
});

test.after(async (ctx) => {
  await ctx.node.proc.stop();
  await ctx.fx.cleanup();
  await rm(ctx.root, { recursive: true, force: true });
});

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

test("log --audit follows the test's own operations with identities and no key material; Ctrl-C is 130, a closed pipe 141", async (ctx) => {
  const follower = spawnMc(["-C", ctx.configDir, "admin", "kms", "log", "kms", "--audit"]);
  let out = "";
  follower.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  const closed = new Promise<number | null>((resolve) => follower.once("close", resolve));
  // The subscription starts at some point after spawn: probe until a probe shows up.
  let probes = 0;
  await waitFor(async () => {
    ok(await mc(ctx, ["admin", "kms", "key", "list", "kms", `probe-${probes++}-*`]));
    return out.includes("/v1/key/list/probe-");
  }, { what: "the audit stream to carry a probe", timeoutMs: 20000 });
  const created = line(ok(await mc(ctx, ["admin", "kms", "identity", "create", "kms", "--json"])));
  ok(await mc(ctx, ["admin", "kms", "key", "create", "kms", "audited"]));
  ok(await mc(ctx, ["admin", "kms", "key", "status", "kms", "audited"]));
  await waitFor(() => out.includes("/v1/key/decrypt/audited"), { what: "the decrypt in the audit stream", timeoutMs: 15000 });
  const rootId = /Identity (h1:\S+)/.exec(ctx.node.proc.output())?.[1] ?? "?";
  const lines = out.split("\n");
  const createLine = lines.find((l) => l.includes("/v1/key/create/audited")) ?? "";
  assert.match(createLine, new RegExp(`^\\S+Z  200  ${rootId.replace(/[+]/g, "\\+")}  127\\.0\\.0\\.1  default  /v1/key/create/audited  \\S+$`));
  assert.ok(lines.some((l) => l.includes(`/v1/identity/create/${String(created["identity"])}`)), "the identity creation is audited");
  assert.not.ok(out.includes("k1:"), "no API key in the audit stream");
  assert.not.ok(out.includes(String(created["apiKey"]).slice(3)), "the new identity's key is not there either");
  follower.kill("SIGINT");
  assert.is(await closed, 130);

  // `| head -n 1`: mc ends at its next write, silently, with 141 like the other streams.
  const shell = spawn("bash", ["-c", `"${process.execPath}" "${mcBin}" -C "${ctx.configDir}" admin kms log kms --audit --json | head -n 1; echo "status \${PIPESTATUS[0]}" >&2`], { env: cleanEnv() });
  let err = "";
  let first = "";
  shell.stderr.on("data", (c: Buffer) => (err += c.toString()));
  shell.stdout.on("data", (c: Buffer) => (first += c.toString()));
  const shellDone = new Promise<void>((resolve) => shell.once("close", () => resolve()));
  let n = 0;
  await waitFor(async () => {
    ok(await mc(ctx, ["admin", "kms", "key", "list", "kms", `pipe-${n++}-*`]));
    return err.includes("status ");
  }, { what: "mc to notice the closed pipe", timeoutMs: 30000 });
  await shellDone;
  assert.is(err, "status 141\n");
  const record = JSON.parse(first) as { request: { identity: string; path: string }; response: { code: number } };
  assert.is(record.request.identity, rootId);
});

test("the docs' recipes run verbatim (operations.md, services/kms/README.md)", async (ctx) => {
  const home = join(ctx.root, "recipes");
  const cwd = join(home, "work");
  await mkdir(join(cwd, ".cluster", "secrets"), { recursive: true });
  await copyFile(ctx.fx.certs.caFile, join(cwd, ".cluster", "secrets", "ca.crt"));
  const { writeFile } = await import("node:fs/promises");
  await writeFile(join(cwd, ".cluster", "secrets", "root-api-key"), `${ctx.node.rootApiKey ?? ""}\n`);
  // mc's first run in this HOME creates ~/.mc/certs/CAs, which the launcher recipe copies into.
  ok(await runRecipe("mc ls --help >/dev/null\n", { home, cwd, bin: ctx.bin, host: `127.0.0.1:${ctx.fx.port}` }));
  const run = async (doc: string, name: string, env: Record<string, string> = {}): Promise<McResult> => {
    const r = await runRecipe(await recipeOf(doc, name), { home, cwd, bin: ctx.bin, host: `127.0.0.1:${ctx.fx.port}`, env });
    assert.is(r.code, 0, `${name}: ${r.stderr}${r.stdout}`);
    return r;
  };
  const launcher = await run("docs/operations.md", "kms-launcher-first-steps");
  assert.match(launcher.stdout, /Created master key `app-key` successfully/);
  const restricted = await run("docs/operations.md", "kms-restricted-identity");
  assert.match(restricted.stdout, /Policies: app-keys\nIdentity: h1:/);
  assert.match(restricted.stdout, /Key: app-1\n {3}- Encryption ✔\n {3}- Decryption ✔\n/);
  const readme = await run("services/kms/README.md", "kms-readme-admin", { KMS_API_KEY: ctx.node.rootApiKey ?? "", KMS_CA: ctx.fx.certs.caFile });
  assert.match(readme.stdout, /Key: app-key\nVersion: 1\n/);
});

test("Found 2: the identity-without-policy fix runs verbatim, for an unknown identity and for one without policy", async (ctx) => {
  const home = join(ctx.root, "recipes");
  const cwd = join(home, "work");
  const recipe = await recipeOf("docs/operations.md", "kms-identity-without-policy");
  const user = (key: string): Promise<McResult> => runMc(["alias", "set", "user", ctx.url, "--api-key", key], { env: { HOME: home } });
  const as = (args: readonly string[]): Promise<McResult> => runMc(args, { env: { HOME: home } });
  // The old advice (assign a policy to the key's identity) fails for a key the KMS never saw: 404.
  ok(await user(newApiKey()));
  const id = /^Identity: (\S+)$/m.exec(ok(await as(["admin", "kms", "identity", "info", "user"])).stdout)?.[1] ?? "";
  ok(await as(["admin", "kms", "policy", "create", "kms", "unused", "--allow", "/v1/key/list/*"]));
  const assign = await as(["admin", "kms", "policy", "assign", "kms", "unused", id]);
  assert.is(assign.code, 1);
  assert.match(assign.stderr, /identity does not exist/);
  const before = await as(["admin", "kms", "key", "list", "user"]);
  assert.match(before.stderr, /Failed to list master keys\. not authorized: insufficient permissions\./);
  const fixed = await runRecipe(recipe, { home, cwd, bin: ctx.bin, host: `127.0.0.1:${ctx.fx.port}` });
  assert.is(fixed.code, 0, fixed.stderr);
  // The identity exists, without a policy (the troubleshooting row's case).
  ok(await as(["admin", "kms", "policy", "delete", "kms", "list-keys"]));
  ok(await user(newApiKey()));
  const id2 = /^Identity: (\S+)$/m.exec(ok(await as(["admin", "kms", "identity", "info", "user"])).stdout)?.[1] ?? "";
  ok(await as(["admin", "kms", "identity", "create", "kms", id2]));
  assert.is((await as(["admin", "kms", "key", "list", "user"])).code, 1);
  const again = await runRecipe(recipe, { home, cwd, bin: ctx.bin, host: `127.0.0.1:${ctx.fx.port}` });
  assert.is(again.code, 0, again.stderr);
  assert.equal(line(ok(await as(["admin", "kms", "identity", "info", "kms", id2, "--json"])))["policies"], ["list-keys"]);
});

test.run();
