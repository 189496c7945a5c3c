// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// `mc admin kms` against one real KMS process: policies from a file and from
// standard input (damaged JSON refused), assign to several identities and
// unassign, admin identities, the API key shown once and nowhere after, and
// the --json line of every command that changes or shows something.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { line, mc, ok, startKmsForMc, stopKmsForMc, type Ctx } from "./kms-admin-fixture.js";
import { jsonLines } from "./mc-runner.js";

const test = suite<Ctx>("mc admin kms --json, policy files, identities (one KMS process)");
test.before(startKmsForMc);
test.after(stopKmsForMc);

const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const h1 = /^h1:[A-Za-z0-9_-]{43}$/;

test("policy create from FILE and from - (stdin); damaged JSON and bad files are refused with one line and nothing created", async (ctx) => {
  const rules = { allow: ["/v1/key/generate/cov-*", "/v1/key/decrypt/cov-*"], deny: ["/v1/key/generate/cov-secret"] };
  const file = join(ctx.root, "cov policy.json");
  await writeFile(file, JSON.stringify(rules));
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "policy", "create", "kms", "cov-file", file, "--json"]))), { status: "success", policy: "cov-file", ...rules });
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "policy", "create", "kms", "cov-stdin", "-", "--json"], JSON.stringify({ allow: rules.allow })))), { status: "success", policy: "cov-stdin", allow: rules.allow, deny: [] });
  assert.is(ok(await mc(ctx, ["admin", "kms", "policy", "create", "kms", "cov-text", "-"], "{\"deny\":[\"/v1/key/delete/*\"]}")).stdout, "Created policy `cov-text` successfully\n");

  const damaged = await mc(ctx, ["admin", "kms", "policy", "create", "kms", "cov-bad", "-"], '{"allow": ["/v1/key/generate/*"');
  assert.is(damaged.code, 1);
  assert.match(damaged.stderr, /^mc: <ERROR> Policy file `-` is not valid JSON\. [^\n]+\n$/);
  const damagedJson = await mc(ctx, ["admin", "kms", "policy", "create", "kms", "cov-bad", "-", "--json"], "not json");
  assert.is(damagedJson.code, 1);
  assert.is((line(damagedJson)["error"] as { message: string }).message, "Policy file `-` is not valid JSON.");
  await writeFile(file, '{"allow": "/v1/key/generate/*"}');
  const notList = await mc(ctx, ["admin", "kms", "policy", "create", "kms", "cov-bad", file]);
  assert.is(notList.stderr, `mc: <ERROR> Policy file \`${file}\`: "allow" must be a list of paths.\n`);
  const missing = await mc(ctx, ["admin", "kms", "policy", "create", "kms", "cov-bad", join(ctx.root, "nope.json")]);
  assert.match(missing.stderr, /^mc: <ERROR> Unable to read policy file `[^`]+nope\.json`\. [^\n]+\n$/);
  const both = await mc(ctx, ["admin", "kms", "policy", "create", "kms", "cov-bad", file, "--allow", "/v1/key/list/*"]);
  assert.is(both.code, 1);
  assert.match(both.stderr, /not both/);

  assert.equal(jsonLines(ok(await mc(ctx, ["admin", "kms", "policy", "list", "kms", "cov-*", "--json"])).stdout), ["cov-file", "cov-stdin", "cov-text"].map((policy) => ({ status: "success", policy })));
  const info = line(ok(await mc(ctx, ["admin", "kms", "policy", "info", "kms", "cov-file", "--json"])));
  assert.equal(Object.keys(info), ["status", "policy", "createdAt", "createdBy"]);
  assert.match(String(info["createdAt"]), iso);
  assert.match(String(info["createdBy"]), h1);
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "policy", "show", "kms", "cov-file", "--json"]))), { status: "success", policy: "cov-file", ...rules });
  // The text form of show is the policy file: it round-trips through create.
  await writeFile(file, ok(await mc(ctx, ["admin", "kms", "policy", "show", "kms", "cov-file"])).stdout);
  ok(await mc(ctx, ["admin", "kms", "policy", "create", "kms", "cov-copy", file]));
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "policy", "show", "kms", "cov-copy", "--json"]))), { status: "success", policy: "cov-copy", ...rules });
  for (const p of ["cov-copy", "cov-text"]) assert.equal(line(ok(await mc(ctx, ["admin", "kms", "policy", "delete", "kms", p, "--json"]))), { status: "success", policy: p });
});

test("identities: the API key shown once, assign to several and unassign, --admin, --json of each", async (ctx) => {
  const shown = ok(await mc(ctx, ["admin", "kms", "identity", "create", "kms"]));
  const m = /^API Key: (k1:[A-Za-z0-9_-]{43})\nIdentity: (h1:\S+)\nPolicies: \nIsAdmin: false\n$/.exec(shown.stdout);
  assert.ok(m, shown.stdout);
  const [, key = "", a = ""] = m;
  assert.is(shown.stderr, "mc: The API key is shown only this once; it is not stored. Keep it in your secret store.\n");
  const b = line(ok(await mc(ctx, ["admin", "kms", "identity", "create", "kms", "--policy", "cov-stdin", "--json"])));
  assert.equal(Object.keys(b), ["status", "identity", "apiKey", "policies", "isAdmin"]);
  assert.equal(b["policies"], ["cov-stdin"]);
  const admin = line(ok(await mc(ctx, ["admin", "kms", "identity", "create", "kms", "--admin", "--json"])));
  assert.is(admin["isAdmin"], true);
  const [bId, adminId] = [String(b["identity"]), String(admin["identity"])];

  assert.equal(jsonLines(ok(await mc(ctx, ["admin", "kms", "policy", "assign", "kms", "cov-file", a, bId, "--json"])).stdout), [a, bId].map((identity) => ({ status: "success", policy: "cov-file", identity })));
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "identity", "info", "kms", bId, "--json"])))["policies"], ["cov-file", "cov-stdin"]);
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "policy", "unassign", "kms", "cov-file", a, "--json"]))), { status: "success", policy: "cov-file", identity: a });
  assert.is(ok(await mc(ctx, ["admin", "kms", "policy", "unassign", "kms", "cov-stdin", bId])).stdout, `Policy \`cov-stdin\` unassigned from \`${bId}\`\n`);
  const infoA = line(ok(await mc(ctx, ["admin", "kms", "identity", "info", "kms", a, "--json"])));
  assert.equal(infoA, { policies: [], identity: a, isAdmin: false, createdAt: infoA["createdAt"], createdBy: infoA["createdBy"] });
  assert.match(String(infoA["createdAt"]), iso);
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "identity", "info", "kms", bId, "--json"])))["policies"], ["cov-file"]);
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "identity", "info", "kms", adminId, "--json"]))).isAdmin, true);

  // An admin manages its enclave's policies and identities, not enclaves.
  ok(await mc(ctx, ["alias", "set", "enclave-admin", ctx.url, "--api-key", String(admin["apiKey"])]));
  assert.ok(ok(await mc(ctx, ["admin", "kms", "policy", "list", "enclave-admin"])).stdout.includes("cov-file\n"));
  assert.match((await mc(ctx, ["admin", "kms", "enclave", "list", "enclave-admin"])).stderr, /not authorized: insufficient permissions/);

  const listed = jsonLines(ok(await mc(ctx, ["admin", "kms", "identity", "list", "kms", "--json"])).stdout);
  for (const id of [a, bId, adminId]) assert.ok(listed.some((l) => l["status"] === "success" && l["identity"] === id), id);
  // Shown once: never again in mc's output, the audit log or the server's log.
  const later = [
    ok(await mc(ctx, ["admin", "kms", "identity", "list", "kms"])).stdout,
    ok(await mc(ctx, ["admin", "kms", "identity", "info", "kms", a])).stdout,
    JSON.stringify(listed),
    await readFile(join(ctx.fx.dir, "audit.log"), "utf8"),
    ctx.node.proc.output(),
  ].join("\n");
  assert.ok(later.includes(`/v1/identity/create/${a}`), "the creation is audited");
  for (const k of [key, String(b["apiKey"]), String(admin["apiKey"])]) assert.not.ok(later.includes(k.slice(3)), "an API key appears after its creation");
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "identity", "delete", "kms", a, "--json"]))), { status: "success", identity: a });
  assert.match((await mc(ctx, ["admin", "kms", "identity", "info", "kms", a])).stderr, /identity does not exist/);
});

test("--json of key import and delete and of enclave create, info, list and delete", async (ctx) => {
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "key", "import", "kms", "cov-imported", Buffer.alloc(32, 3).toString("base64"), "--json"]))), { status: "success", keyId: "cov-imported" });
  ok(await mc(ctx, ["admin", "kms", "key", "rotate", "kms", "cov-imported"]));
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "key", "delete", "kms", "cov-imported", "--version", "1", "--json"]))), { status: "success", keyId: "cov-imported", version: 1 });
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "key", "delete", "kms", "cov-imported", "--json"]))), { status: "success", keyId: "cov-imported" });
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "enclave", "create", "kms", "cov-enclave", "--json"]))), { status: "success", enclave: "cov-enclave" });
  const info = line(ok(await mc(ctx, ["admin", "kms", "enclave", "info", "kms", "cov-enclave", "--json"])));
  assert.equal(Object.keys(info), ["status", "enclave", "createdAt", "createdBy"]);
  assert.is(info["enclave"], "cov-enclave");
  assert.match(String(info["createdAt"]), iso);
  assert.equal(jsonLines(ok(await mc(ctx, ["admin", "kms", "enclave", "list", "kms", "cov-*", "--json"])).stdout), [{ status: "success", enclave: "cov-enclave" }]);
  assert.equal(line(ok(await mc(ctx, ["admin", "kms", "enclave", "delete", "kms", "cov-enclave", "--json"]))), { status: "success", enclave: "cov-enclave" });
  assert.equal(jsonLines(ok(await mc(ctx, ["admin", "kms", "enclave", "list", "kms", "cov-*", "--json"])).stdout), []);
});

test.run();
