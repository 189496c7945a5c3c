// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// The KMS recipes of docs/operations.md and services/kms/README.md, run
// verbatim against a real KMS process (tests/mc/kms-recipes.ts), and the
// identity-without-policy fix (issue 20, Found 2).
import { execFile } from "node:child_process";
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { newApiKey } from "@mc/kms";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { line, ok, startKmsForMc, stopKmsForMc, type Ctx } from "./kms-admin-fixture.js";
import { recipeOf, runRecipe } from "./kms-recipes.js";
import { runMc, type McResult } from "./mc-runner.js";

const test = suite<Ctx>("mc admin kms recipes (one KMS process)");
test.before(startKmsForMc);
test.after(stopKmsForMc);

test("the docs' recipes run verbatim (operations.md, services/kms/README.md)", async (ctx) => {
  const home = join(ctx.root, "recipes");
  const cwd = join(home, "work");
  await mkdir(join(cwd, ".cluster", "secrets"), { recursive: true });
  await copyFile(ctx.fx.certs.caFile, join(cwd, ".cluster", "secrets", "ca.crt"));
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
  // The mTLS recipe: a client certificate of the service's own (not an API key), in the working folder.
  await promisify(execFile)("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", join(cwd, "client.key"), "-out", join(cwd, "client.crt"), "-subj", "/CN=billing", "-days", "2"]);
  const mtls = await run("docs/operations.md", "kms-mtls-identity");
  assert.match(mtls.stdout, /Identity: h1:\S+\nPolicies: app-keys\nIsAdmin: false\n/);
  assert.match(mtls.stdout, /Key: app-1\n {3}- Encryption ✔\n {3}- Decryption ✔\n$/);
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
