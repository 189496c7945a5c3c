// `mc admin kms` against a real embedded KMS node on a free port: key
// create/list/status, identity info, permission denied for a narrow policy,
// and an untrusted CA (contracts/mc.md §5/§7, contracts/kms.md §10).
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKmsClient, identityOfSeed, newApiKey, parseApiKey, startEmbeddedKms, type EmbeddedKms, type KmsClient } from "@mc/kms";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { freePort } from "../harness/free-port.js";
import { jsonLines, runMc, type McResult } from "./mc-runner.js";

interface Ctx {
  root: string;
  configDir: string;
  kms: EmbeddedKms;
  admin: KmsClient;
  url: string;
}

const test = suite<Ctx>("mc admin kms");
const mc = (ctx: Ctx, args: readonly string[], env: Record<string, string | undefined> = {}): Promise<McResult> => runMc(["-C", ctx.configDir, ...args], { env });

test.before(async (ctx) => {
  ctx.root = await mkdtemp(join(tmpdir(), "mc-admin-kms-"));
  ctx.configDir = join(ctx.root, "mc");
  const port = await freePort();
  ctx.kms = await startEmbeddedKms({ dataDir: join(ctx.root, "kms"), host: "127.0.0.1", port, log: () => undefined });
  ctx.url = `https://127.0.0.1:${port}`;
  ctx.admin = await createKmsClient({ server: ctx.url, ca: await readFile(ctx.kms.caFile), apiKey: ctx.kms.rootApiKey });
});

test.after(async (ctx) => {
  ctx.admin.close();
  await ctx.kms.close();
  await rm(ctx.root, { recursive: true, force: true });
});

test("an untrusted KMS CA is `tls: certificate signed by unknown authority`; trusting it fixes that", async (ctx) => {
  const set = await mc(ctx, ["alias", "set", "kms", ctx.url, "--api-key", ctx.kms.rootApiKey]);
  assert.is(set.code, 0, set.stderr);
  const failed = await mc(ctx, ["admin", "kms", "key", "list", "kms"]);
  assert.is(failed.code, 1);
  assert.match(failed.stderr, /tls: certificate signed by unknown authority/);
  const asJson = await mc(ctx, ["admin", "kms", "key", "list", "kms", "--json"]);
  assert.is(asJson.code, 1);
  const [err] = jsonLines(asJson.stdout);
  assert.is(err?.["status"], "error");
  assert.match(JSON.stringify(err), /tls: certificate signed by unknown authority/);
  await copyFile(ctx.kms.caFile, join(ctx.configDir, "certs", "CAs", "kms.crt"));
  const ok = await mc(ctx, ["admin", "kms", "key", "list", "kms"]);
  assert.is(ok.code, 0, ok.stderr);
});

test("key create and list, text and --json", async (ctx) => {
  const created = await mc(ctx, ["admin", "kms", "key", "create", "kms", "app-key"]);
  assert.is(created.code, 0, created.stderr);
  assert.is(created.stdout, "Created master key `app-key` successfully\n");
  const json = await mc(ctx, ["admin", "kms", "key", "create", "kms", "other-key", "--json"]);
  assert.equal(jsonLines(json.stdout), [{ status: "success", keyId: "other-key" }]);
  const again = await mc(ctx, ["admin", "kms", "key", "create", "kms", "app-key"]);
  assert.is(again.code, 1);
  assert.match(again.stderr, /^mc: <ERROR> Failed to create master key `app-key`\. .*exist/);
  const list = await mc(ctx, ["admin", "kms", "key", "list", "kms", "--json"]);
  assert.is(list.code, 0, list.stderr);
  assert.equal(jsonLines(list.stdout), [
    { status: "success", name: "app-key" },
    { status: "success", name: "other-key" },
  ]);
  const text = await mc(ctx, ["admin", "kms", "key", "list", "kms", "app-*"]);
  assert.is(text.stdout, "app-key\n");
});

test("key status succeeds for an existing key and reports a missing one", async (ctx) => {
  const ok = await mc(ctx, ["admin", "kms", "key", "status", "kms", "app-key"]);
  assert.is(ok.code, 0, ok.stderr);
  assert.is(ok.stdout, "Key: app-key\n   - Encryption ✔\n   - Decryption ✔\n");
  const json = await mc(ctx, ["admin", "kms", "key", "status", "kms", "app-key", "--json"]);
  assert.equal(jsonLines(json.stdout), [{ keyId: "app-key", encryption: true, decryption: true, status: "success" }]);
  assert.is(Object.keys(jsonLines(json.stdout)[0] ?? {}).join(","), "keyId,encryption,decryption,status");
  const missing = await mc(ctx, ["admin", "kms", "key", "status", "kms", "no-such-key", "--json"]);
  assert.is(missing.code, 1);
  const [m] = jsonLines(missing.stdout);
  assert.is(m?.["encryption"], false);
  assert.is(m?.["decryption"], false);
  assert.is(m?.["status"], "error");
  assert.match(String(m?.["encryptionError"]), /does not exist/);
  assert.is(m?.["decryptionError"], m?.["encryptionError"]);
  const text = await mc(ctx, ["admin", "kms", "key", "status", "kms", "no-such-key"]);
  assert.is(text.code, 1);
  assert.match(text.stdout, /^Key: no-such-key\n {3}- Encryption ✗ \(.*does not exist.*\)\n {3}- Decryption ✗ \(/);
  const usage = await mc(ctx, ["admin", "kms", "key", "status", "kms"]);
  assert.is(usage.code, 1);
  assert.match(usage.stderr, /Invalid command usage/);
});

test("an identity without /v1/key/generate/* gets permission denied; identity info shows its policy", async (ctx) => {
  const apiKey = newApiKey();
  const identity = identityOfSeed(parseApiKey(apiKey) ?? new Uint8Array());
  await ctx.admin.call("POST", "/v1/policy/create/describe-only", { allow: ["/v1/key/describe/*", "/v1/key/list/*"], deny: [] });
  await ctx.admin.call("POST", `/v1/identity/create/${identity}`, { policy: "describe-only" });
  const set = await mc(ctx, ["alias", "set", "narrow", ctx.url, "--api-key", apiKey]);
  assert.is(set.code, 0, set.stderr);
  const status = await mc(ctx, ["admin", "kms", "key", "status", "narrow", "app-key", "--json"]);
  assert.is(status.code, 1);
  const [s] = jsonLines(status.stdout);
  assert.is(s?.["encryption"], false);
  assert.match(String(s?.["encryptionError"]), /not authorized|permission/i);
  const info = await mc(ctx, ["admin", "kms", "identity", "info", "kms", identity, "--json"]);
  assert.is(info.code, 0, info.stderr);
  const [i] = jsonLines(info.stdout);
  assert.equal(Object.keys(i ?? {}), ["policies", "identity", "isAdmin", "createdAt", "createdBy"]);
  assert.equal(i?.["policies"], ["describe-only"]);
  assert.is(i?.["identity"], identity);
  assert.is(i?.["isAdmin"], false);
  const text = await mc(ctx, ["admin", "kms", "identity", "info", "kms", identity]);
  assert.match(text.stdout, /^Policies: describe-only\nIdentity: h1:/);
});

test("admin info shows the KMS status; an unreachable object-store alias gets the troubleshooting line", async (ctx) => {
  const json = await mc(ctx, ["admin", "info", "kms", "--json"]);
  assert.is(json.code, 0, json.stderr);
  const [v] = jsonLines(json.stdout);
  assert.is(v?.["status"], "success");
  const info = v?.["info"] as Record<string, unknown>;
  assert.is(info["mode"], "kms");
  assert.is(info["endpoint"], ctx.url);
  assert.is(info["role"], "leader");
  assert.type(info["version"], "string");
  const text = await mc(ctx, ["admin", "info", "kms"]);
  assert.is(text.code, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`^●  ${ctx.url}\n   Version: .+\n   Uptime: \\d`));
  const s3 = await mc(ctx, ["admin", "info", "local"]);
  assert.is(s3.code, 1);
  assert.match(s3.stderr, /^mc: <ERROR> Unable to get service info of `local` \(http:\/\/localhost:9000\)\. .*Check the URL of the alias and that the server is running and reachable\.\n$/);
});

test("`mc admin kms` without a subcommand lists the group", async (ctx) => {
  // mc.md §1: a bare group prints the group's help and exits 0, as upstream.
  const r = await mc(ctx, ["admin", "kms"]);
  assert.is(r.code, 0);
  assert.match(r.stdout, /USAGE:\n  mc admin kms COMMAND/);
  assert.match(r.stdout, /\n  key +manage KMS keys\n/);
  assert.match(r.stdout, /\n  identity +manage KMS identities/);
  assert.match(r.stdout, /\n  policy +manage KMS policies\n/);
  assert.match(r.stdout, /\n  status +show the KMS cluster as its leader sees it\n/);
});

test("a non-KMS alias is refused in one line", async (ctx) => {
  const r = await mc(ctx, ["admin", "kms", "key", "list", "local"], { KMS_API_KEY: undefined });
  assert.is(r.code, 1);
  assert.match(r.stderr, /^mc: <ERROR> Alias `local` is not a KMS alias/);
});

test.run();
