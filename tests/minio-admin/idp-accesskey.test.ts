// mc idp ldap|openid accesskey … against a recording endpoint, compared
// request by request with the reference driver (issue 24). These calls are
// madmin-go v3's (list-access-keys-bulk, info-access-key,
// idp/ldap/add-service-account, the v3 service-account fields): the driver
// sends them through the v2.0.7 library's ExecuteMethod and EncryptData.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer, referenceDecrypt, referenceEncrypt } from "./go-driver.js";
import { differential, keys, startAdminFixture } from "./fixture.js";
import type { Answer, Recorded } from "./recorder.js";

const fx = await startAdminFixture();
const dir = await mkdtemp(join(tmpdir(), "mc-accesskey-"));
const sealed = async (name: string): Promise<Buffer> => referenceEncrypt(keys.secret, await cannedAnswer(name));
const [ldapList, openidList, info, created] = await Promise.all([sealed("ldap-accesskey-list"), sealed("openid-accesskey-list"), sealed("accesskey-info"), sealed("accesskey-create")]);

const answers = (req: Recorded): Answer => {
  const p = req.path.replace("/minio/admin/v3", "");
  if (p === "/idp/ldap/list-access-keys-bulk") return { body: ldapList };
  if (p === "/idp/openid/list-access-keys-bulk") return { body: openidList };
  if (p === "/info-access-key") return { body: info };
  if (p === "/idp/ldap/add-service-account") return { body: created };
  return { status: 204 };
};

const T = suite("mc idp … accesskey (differential against the reference driver)");
T.after(async () => {
  await fx.stop();
  await rm(dir, { recursive: true, force: true });
});

T("idp ldap accesskey list: GET idp/ldap/list-access-keys-bulk, --all tried first; real mc's text and JSON per DN", async () => {
  const r = await differential(fx, { op: "ldap-accesskey-list", args: { listType: "all", all: true }, mc: ["idp", "ldap", "accesskey", "list", "minio/"], responder: answers });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/idp/ldap/list-access-keys-bulk", [["all", "true"], ["listType", "all"]]]]);
  assert.is(r.ours.stdout, "DN: uid=alice,dc=example,dc=org\n  Access Keys:\n    STSALICE1, expires: never, sts: true\n    SVCALICE1, expires: never, sts: false\n\n");
  const j = await fx.mc(["idp", "ldap", "accesskey", "ls", "minio/", "--json"]);
  const [m] = jsonLines(j.stdout) as { status: string; user: string; stsKeys: { accessKey: string }[]; svcaccs: { accessKey: string; name: string }[]; ldap: boolean }[];
  assert.equal([m?.status, m?.user, m?.stsKeys[0]?.accessKey, m?.svcaccs[0]?.name, m?.ldap], ["success", "uid=alice,dc=example,dc=org", "STSALICE1", "backup", true]);
});

T("idp ldap accesskey list DN… --svcacc-only: the DNs as userDNs in the query", async () => {
  const r = await differential(fx, { op: "ldap-accesskey-list", args: { listType: "svcacc-only", users: ["uid=bob,dc=example,dc=org", "alice"] }, mc: ["idp", "ldap", "accesskey", "list", "minio/", "uid=bob,dc=example,dc=org", "alice", "--svcacc-only"], responder: answers });
  assert.equal(r.requests[0]?.query, [["listType", "svcacc-only"], ["userDNs", "alice"], ["userDNs", "uid=bob,dc=example,dc=org"]]);
});

T("idp ldap accesskey list: refused --all (AccessDenied) is retried for the caller alone, as upstream", async () => {
  fx.recorder.clear();
  fx.recorder.respond((req) => (req.query.includes("all=true") ? { status: 403, body: JSON.stringify({ Code: "AccessDenied", Message: "Access Denied." }) } : answers(req)));
  const r = await fx.mc(["idp", "ldap", "accesskey", "list", "minio/", "--temp-only"]);
  assert.is(r.code, 0, r.stderr);
  assert.equal(fx.recorder.requests.map((q) => q.query), ["all=true&listType=sts-only", "listType=sts-only"]);
});

T("idp openid accesskey list ALIAS:CFG: GET idp/openid/list-access-keys-bulk with configName; real mc's text", async () => {
  const r = await differential(fx, { op: "openid-accesskey-list", args: { listType: "users-only", all: true, configName: "keycloak" }, mc: ["idp", "openid", "accesskey", "list", "minio/:keycloak", "--users-only", "--all"], responder: answers });
  assert.equal(r.requests[0]?.query, [["all", "true"], ["configName", "keycloak"], ["listType", "users-only"]]);
  assert.is(r.ours.stdout, "Config Name: keycloak\n  User ID: a1b2c3\n  ID: alice-sub\n  Readable Name: Alice\n    Access Keys:\n      SVCOIDC1, expires: never, sts: false\n\n");
  const j = await fx.mc(["idp", "openid", "accesskey", "list", "minio/", "--json"]);
  assert.equal((jsonLines(j.stdout)[0] as { configName: string }).configName, "keycloak");
});

for (const type of ["ldap", "openid"] as const) {
  T(`idp ${type} accesskey info: GET info-access-key per key; the decrypted answer in real mc's shapes`, async () => {
    const r = await differential(fx, { op: "accesskey-info", args: { accessKey: "SVC ALICE+1" }, mc: ["idp", type, "accesskey", "info", "minio/", "SVC ALICE+1"], responder: answers });
    assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/info-access-key", [["accessKey", "SVC ALICE+1"]]]]);
    assert.is(
      r.ours.stdout,
      "Access Key: SVC ALICE+1\nParent User: uid=alice,dc=example,dc=org\nStatus: disabled\nPolicy: implied\nName: backup\nDescription: nightly backups\nExpiration: NONE\nSTS: false\nProvider: ldap\nProvider Specific Info:\nUsername: alice\n",
    );
    const j = await fx.mc(["idp", type, "accesskey", "info", "minio/", "K1", "K2", "--json"]);
    const lines = jsonLines(j.stdout);
    assert.is(lines.length, 2);
    assert.equal(lines[0], { status: "success", accessKey: "K1", parentUser: "uid=alice,dc=example,dc=org", accountStatus: "off", impliedPolicy: true, policy: { Version: "2012-10-17", Statement: [] }, name: "backup", description: "nightly backups", provider: "ldap", providerInfo: { username: "alice" } });
  });

  T(`idp ${type} accesskey edit: POST update-service-account with the v3 fields encrypted`, async () => {
    const policy = join(dir, "p.json");
    const doc = { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::photos/*"] }] };
    await writeFile(policy, JSON.stringify(doc));
    const r = await differential(fx, {
      op: "accesskey-edit",
      args: { accessKey: "SVCALICE1", secretKey: "n3w-secret-value", name: "nightly", description: "é + %", expiration: "2030-01-02T03:04:05Z", policy: JSON.stringify(doc) },
      mc: ["idp", type, "accesskey", "edit", "minio/", "SVCALICE1", "--secret-key", "n3w-secret-value", "--name", "nightly", "--description", "é + %", "--expiry", "2030-01-02T03:04:05Z", "--policy", policy],
      encrypted: true,
      responder: answers,
    });
    assert.equal(r.requests.map((q) => [q.method, q.path, q.query, q.body]), [["POST", "/minio/admin/v3/update-service-account", [["accessKey", "SVCALICE1"]], { newPolicy: doc, newSecretKey: "n3w-secret-value", newName: "nightly", newDescription: "é + %", newExpiration: "2030-01-02T03:04:05Z" }]]);
    assert.is(r.ours.stdout, "Successfully edited access key `SVCALICE1`.\n");
  });

  for (const [verb, status] of [["enable", "on"], ["disable", "off"]] as const) {
    T(`idp ${type} accesskey ${verb}: update-service-account with newStatus ${status} (madmin v2.0.7's own call)`, async () => {
      const r = await differential(fx, { op: "accesskey-status", args: { accessKey: "SVCALICE1", status }, mc: ["idp", type, "accesskey", verb, "minio/", "SVCALICE1"], encrypted: true, responder: answers });
      assert.equal(r.requests.map((q) => q.body), [{ newStatus: status }]);
      assert.is(r.ours.stdout, `Successfully ${verb}d access key \`SVCALICE1\`.\n`);
    });
  }

  T(`idp ${type} accesskey remove: DELETE delete-service-account`, async () => {
    const r = await differential(fx, { op: "accesskey-remove", args: { accessKey: "SVCALICE1" }, mc: ["idp", type, "accesskey", "remove", "minio/", "SVCALICE1"], responder: answers });
    assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["DELETE", "/minio/admin/v3/delete-service-account", [["accessKey", "SVCALICE1"]]]]);
    const j = await fx.mc(["idp", type, "accesskey", "rm", "minio/", "SVCALICE1", "--json"]);
    assert.equal(jsonLines(j.stdout), [{ status: "success", accessKey: "SVCALICE1" }]);
  });
}

T("idp ldap accesskey create: PUT idp/ldap/add-service-account (v3 body, epoch = no expiry); the new keys in real mc's shapes", async () => {
  const r = await differential(fx, {
    op: "ldap-accesskey-create",
    args: { targetUser: "uid=bob,dc=example,dc=org", accessKey: "NEWKEY123", secretKey: "NEWSECRET123456789", name: "ci", description: "for CI" },
    mc: ["idp", "ldap", "accesskey", "create", "minio/", "uid=bob,dc=example,dc=org", "--access-key", "NEWKEY123", "--secret-key", "NEWSECRET123456789", "--name", "ci", "--description", "for CI"],
    encrypted: true,
    responder: answers,
  });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.body]), [["PUT", "/minio/admin/v3/idp/ldap/add-service-account", { targetUser: "uid=bob,dc=example,dc=org", accessKey: "NEWKEY123", secretKey: "NEWSECRET123456789", name: "ci", description: "for CI", expiration: "1970-01-01T00:00:00Z" }]]);
  assert.is(r.ours.stdout, "Access Key: NEWKEY123\nSecret Key: NEWSECRET123456789\nExpiration: NONE\nName: ci\nDescription: for CI\n\n");
  fx.recorder.clear();
  const j = await fx.mc(["idp", "ldap", "accesskey", "create", "minio/", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ status: "success", accessKey: "NEWKEY123", secretKey: "NEWSECRET123456789", expiration: "0001-01-01T00:00:00Z" }]);
  // Without --access-key/--secret-key, mc makes them (20 and 40 characters), as upstream does.
  const d = await referenceDecrypt(keys.secret, fx.recorder.requests[0]?.body ?? Buffer.alloc(0));
  const body = d.ok ? (JSON.parse(d.plain.toString()) as { accessKey: string; secretKey: string }) : { accessKey: "", secretKey: "" };
  assert.match(body.accessKey, /^[A-Z0-9]{20}$/);
  assert.match(body.secretKey, /^[A-Za-z0-9]{40}$/);
});

T("hostile input: wrong arguments and flags are one line, exit 1, nothing sent", async () => {
  fx.recorder.clear();
  const empty = join(dir, "empty.json");
  await writeFile(empty, JSON.stringify({ Version: "2012-10-17", Statement: [] }));
  const bad: readonly (readonly string[])[] = [
    ["idp", "ldap", "accesskey", "list", "minio/", "--users-only", "--temp-only"],
    ["idp", "ldap", "accesskey", "list", "minio/", "--self", "--all"],
    ["idp", "ldap", "accesskey", "list", "minio/", "alice", "--all"],
    ["idp", "ldap", "accesskey", "info", "minio/"],
    ["idp", "ldap", "accesskey", "edit", "minio/", "K1"],
    ["idp", "ldap", "accesskey", "edit", "minio/", "K1", "--expiry", "2030-01-01", "--expiry-duration", "1h"],
    ["idp", "ldap", "accesskey", "edit", "minio/", "K1", "--expiry", "next tuesday"],
    ["idp", "openid", "accesskey", "edit", "minio/", "K1", "--policy", empty],
    ["idp", "ldap", "accesskey", "create", "minio/", "--policy", join(dir, "missing.json")],
    ["idp", "ldap", "accesskey", "enable", "minio/"],
    ["idp", "openid", "accesskey", "remove", "minio/", "K1", "K2"],
  ];
  for (const args of bad) {
    const r = await fx.mc(args);
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr, /^mc: <ERROR> [^\n]+\n/, args.join(" "));
  }
  assert.is(fx.recorder.requests.length, 0);
});

T("a flipped byte in the encrypted info answer is refused: one line, exit 1", async () => {
  const damaged = Buffer.from(info);
  damaged[60] = (damaged[60] ?? 0) ^ 0x80;
  fx.recorder.respond(() => ({ body: damaged }));
  const r = await fx.mc(["idp", "ldap", "accesskey", "info", "minio/", "K1"]);
  assert.is(r.code, 1);
  assert.match(r.stderr, /^mc: <ERROR> Unable to get info for access key\. [^\n]+\n$/);
});

T.run();
