// mc admin user … (users, service accounts, STS info) against a recording
// endpoint, compared request by request with the reference driver (issue 25).
// User calls are madmin-go v2.0.7's own; the service-account calls carry
// current upstream's v3 fields, sent by the driver through v2.0.7's
// ExecuteMethod and EncryptData.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer, referenceEncrypt } from "./go-driver.js";
import { differential, keys, startAdminFixture } from "./fixture.js";
import type { Answer, Recorded } from "./recorder.js";

const fx = await startAdminFixture();
const dir = await mkdtemp(join(tmpdir(), "mc-admin-user-"));
const sealed = async (name: string): Promise<Buffer> => referenceEncrypt(keys.secret, await cannedAnswer(name));
const [userList, svcList, svcInfo, stsInfo, created, userInfo, groupDesc] = await Promise.all([
  sealed("user-list"), sealed("svcacct-list"), sealed("svcacct-info"), sealed("sts-info"), sealed("accesskey-create"), cannedAnswer("user-info"), cannedAnswer("group-desc"),
]);

const answers = (req: Recorded): Answer => {
  const p = req.path.replace("/minio/admin/v3", "");
  const bodies: Record<string, Buffer> = { "/list-users": userList, "/user-info": userInfo, "/group": groupDesc, "/list-service-accounts": svcList, "/info-service-account": svcInfo, "/temporary-account-info": stsInfo, "/add-service-account": created };
  const body = bodies[p];
  if (body !== undefined) return { body };
  return { status: p === "/update-service-account" || p === "/delete-service-account" ? 204 : 200 };
};
const enc = (req: Recorded): boolean => ["/add-user", "/add-service-account", "/update-service-account"].some((p) => req.path.endsWith(p));
const T = suite("mc admin user (differential against the reference driver)");
T.after(async () => {
  await fx.stop();
  await rm(dir, { recursive: true, force: true });
});

T("user add|enable|disable|remove: the same requests as madmin (encrypted add-user body, set-user-status, remove-user); real mc's text", async () => {
  const name = "a%2B+b#c é";
  const add = await differential(fx, { op: "user-add", args: { accessKey: name, secretKey: "s3cr3t+/=key" }, mc: ["admin", "user", "add", "minio", name, "s3cr3t+/=key"], encrypted: enc, responder: answers });
  assert.equal(add.requests.map((q) => [q.method, q.path, q.query, q.body]), [["PUT", "/minio/admin/v3/add-user", [["accessKey", name]], { secretKey: "s3cr3t+/=key", status: "enabled" }]]);
  assert.is(add.ours.stdout, `Added user \`${name}\` successfully.\n`);
  const piped = await differential(fx, { op: "user-add", args: { accessKey: "bob", secretKey: "bobsecret1" }, mc: ["admin", "user", "add", "minio"], input: "bob\nbobsecret1\n", encrypted: enc, responder: answers });
  assert.is(piped.ours.stdout, "Added user `bob` successfully.\n");
  for (const [verb, status, text] of [["enable", "enabled", "Enabled"], ["disable", "disabled", "Disabled"]] as const) {
    const r = await differential(fx, { op: "user-status", args: { accessKey: "bob", status }, mc: ["admin", "user", verb, "minio", "bob"], responder: answers });
    assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["PUT", "/minio/admin/v3/set-user-status", [["accessKey", "bob"], ["status", status]]]]);
    assert.is(r.ours.stdout, `${text} user \`bob\` successfully.\n`);
  }
  const rmu = await differential(fx, { op: "user-remove", args: { accessKey: "bob" }, mc: ["admin", "user", "rm", "minio", "bob"], responder: answers });
  assert.equal(rmu.requests.map((q) => `${q.method} ${q.path}`), ["DELETE /minio/admin/v3/remove-user"]);
  assert.is(rmu.ours.stdout, "Removed user `bob` successfully.\n");
  const j = await fx.mc(["admin", "user", "add", "minio", "carol", "carolsecret", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ status: "success", accessKey: "carol", secretKey: "carolsecret", userStatus: "enabled" }]);
});

T("user list and info: list-users (decrypted) or user-info, then each group's description, as upstream; canned answers in real mc's shapes", async () => {
  const list = await differential(fx, { op: "user-list", mc: ["admin", "user", "ls", "minio"], responder: answers });
  assert.equal(list.requests.map((q) => [q.path, q.query]), [["/minio/admin/v3/list-users", []], ["/minio/admin/v3/group", [["group", "ops"]]]]);
  assert.is(list.ours.stdout, "enabled    alice                 readwrite           \ndisabled   bob with a very l...                      \n");
  const lj = await fx.mc(["admin", "user", "list", "minio", "--json"]);
  assert.equal(jsonLines(lj.stdout), [
    { status: "success", accessKey: "alice", policyName: "readwrite", userStatus: "enabled", memberOf: [{ name: "ops", policies: ["consoleAdmin", "diagnostics"] }] },
    { status: "success", accessKey: "bob with a very long name", userStatus: "disabled" },
  ]);
  const info = await differential(fx, { op: "user-info", args: { accessKey: "alice" }, mc: ["admin", "user", "info", "minio", "alice"], responder: answers });
  assert.equal(info.requests.map((q) => [q.path, q.query]), [["/minio/admin/v3/user-info", [["accessKey", "alice"]]], ["/minio/admin/v3/group", [["group", "ops"]]]]);
  assert.is(info.ours.stdout, "AccessKey: alice\nStatus: enabled\nPolicyName: readwrite,diagnostics\nMemberOf: ops\n");
  const ij = await fx.mc(["admin", "user", "info", "minio", "alice", "--json"]);
  assert.equal(jsonLines(ij.stdout), [{ status: "success", accessKey: "alice", policyName: "readwrite,diagnostics", userStatus: "enabled", memberOf: [{ name: "ops", policies: ["consoleAdmin", "diagnostics"] }] }]);
});

T("user svcacct add: PUT add-service-account with current upstream's body (targetUser, name, description, expiry, policy), both ways encrypted", async () => {
  const policyDoc = { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::photos/*"] }] };
  const file = join(dir, "policy.json");
  await writeFile(file, JSON.stringify(policyDoc, null, 2));
  const r = await differential(fx, {
    op: "svcacct-add",
    args: { user: "alice", accessKey: "SVCKEY1", secretKey: "SVCSECRET12345678", name: "backup", description: "nightly", expiration: "2030-01-02T00:00:00Z", policy: JSON.stringify(policyDoc) },
    mc: ["admin", "user", "svcacct", "add", "minio", "alice", "--access-key", "SVCKEY1", "--secret-key", "SVCSECRET12345678", "--name", "backup", "--description", "nightly", "--expiry", "2030-01-02T00:00:00Z", "--policy", file],
    encrypted: enc,
    responder: answers,
  });
  assert.equal(r.requests[0]?.body, { policy: policyDoc, targetUser: "alice", accessKey: "SVCKEY1", secretKey: "SVCSECRET12345678", name: "backup", description: "nightly", expiration: "2030-01-02T00:00:00Z" });
  assert.is(r.ours.stdout, "Access Key: NEWKEY123\nSecret Key: NEWSECRET123456789\nExpiration: no-expiry\n");
  // Without keys: upstream's generated 20-character access key and 40-character secret key.
  fx.recorder.clear();
  const g = await fx.mc(["admin", "user", "svcacct", "add", "minio", "alice", "--json"]);
  assert.is(g.code, 0, g.stderr);
  assert.equal(jsonLines(g.stdout), [{ status: "success", accessKey: "NEWKEY123", secretKey: "NEWSECRET123456789", accountStatus: "enabled", expiration: "0001-01-01T00:00:00Z" }]);
});

T("user svcacct list|info and sts info: the same GETs; decrypted canned answers in real mc's text and JSON", async () => {
  const list = await differential(fx, { op: "svcacct-list", args: { user: "alice" }, mc: ["admin", "user", "svcacct", "ls", "minio", "alice"], responder: answers });
  assert.equal(list.requests.map((q) => [q.path, q.query]), [["/minio/admin/v3/list-service-accounts", [["user", "alice"]]]]);
  assert.is(list.ours.stdout, "SVC1                 | 1970-01-01 00:00:00 +0000 UTC\nSVC2                 | 2030-01-02 00:00:00 +0000 UTC\n");
  const info = await differential(fx, { op: "svcacct-info", args: { accessKey: "SVC2" }, mc: ["admin", "user", "svcacct", "info", "minio", "SVC2"], responder: answers });
  assert.equal(info.requests.map((q) => [q.path, q.query]), [["/minio/admin/v3/info-service-account", [["accessKey", "SVC2"]]]]);
  assert.match(info.ours.stdout, /^AccessKey: SVC2\nParentUser: alice\nStatus: on\nName: backup\nDescription: nightly backups\nPolicy: embedded\nExpiration: \d+ years from now\n$/);
  const ij = await fx.mc(["admin", "user", "svcacct", "info", "minio", "SVC2", "--json"]);
  const [m] = jsonLines(ij.stdout) as Record<string, unknown>[];
  assert.equal(m, { status: "success", accessKey: "SVC2", parentUser: "alice", policy: { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::photos/*"] }] }, name: "backup", description: "nightly backups", accountStatus: "on", expiration: "2030-01-02T00:00:00Z" });
  const sts = await differential(fx, { op: "sts-info", args: { accessKey: "STS1" }, mc: ["admin", "user", "sts", "info", "minio", "STS1"], responder: answers });
  assert.equal(sts.requests.map((q) => [q.path, q.query]), [["/minio/admin/v3/temporary-account-info", [["accessKey", "STS1"]]]]);
  assert.is(sts.ours.stdout, "AccessKey: STS1\nParentUser: alice\nStatus: on\nName: \nDescription: \nPolicy: implied\nExpiration: no-expiry\n");
});

T("user svcacct edit|enable|disable|remove: update-service-account (encrypted, v3 fields) and delete-service-account, as upstream", async () => {
  const edit = await differential(fx, { op: "accesskey-edit", args: { accessKey: "SVC1", secretKey: "NEWSECRET99999999", name: "renamed", description: "d" }, mc: ["admin", "user", "svcacct", "edit", "minio", "SVC1", "--secret-key", "NEWSECRET99999999", "--name", "renamed", "--description", "d"], encrypted: enc, responder: answers });
  assert.equal(edit.requests.map((q) => [q.method, q.path, q.query, q.body]), [["POST", "/minio/admin/v3/update-service-account", [["accessKey", "SVC1"]], { newSecretKey: "NEWSECRET99999999", newName: "renamed", newDescription: "d" }]]);
  assert.is(edit.ours.stdout, "Edited service account `SVC1` successfully.\n");
  for (const [verb, status, text] of [["enable", "on", "Enabled"], ["disable", "off", "Disabled"]] as const) {
    const r = await differential(fx, { op: "accesskey-status", args: { accessKey: "SVC1", status }, mc: ["admin", "user", "svcacct", verb, "minio", "SVC1"], encrypted: enc, responder: answers });
    assert.equal(r.requests[0]?.body, { newStatus: status });
    assert.is(r.ours.stdout, `${text} service account \`SVC1\` successfully.\n`);
  }
  const rmv = await differential(fx, { op: "accesskey-remove", args: { accessKey: "SVC1" }, mc: ["admin", "user", "svcacct", "rm", "minio", "SVC1"], responder: answers });
  assert.equal(rmv.requests.map((q) => `${q.method} ${q.path}`), ["DELETE /minio/admin/v3/delete-service-account"]);
  assert.is(rmv.ours.stdout, "Removed service account `SVC1` successfully.\n");
});

T("errors: wrong arguments are usage errors with nothing sent; MinIO's JSON error in one line, exit 1", async () => {
  fx.recorder.clear();
  for (const args of [["admin", "user", "add"], ["admin", "user", "info", "minio"], ["admin", "user", "svcacct", "add", "minio"], ["admin", "user", "svcacct", "add", "minio", "alice", "--expiry", "soon"], ["admin", "user", "sts", "info", "minio"]]) {
    const r = await fx.mc(args);
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr, /^mc: <ERROR> /, args.join(" "));
  }
  assert.is(fx.recorder.requests.length, 0);
  fx.recorder.respond(() => ({ status: 404, body: JSON.stringify({ Code: "XMinioAdminNoSuchUser", Message: "The specified user does not exist" }) }));
  const r = await fx.mc(["admin", "user", "info", "minio", "nobody"]);
  assert.is(r.code, 1);
  assert.is(r.stderr, "mc: <ERROR> Unable to get user info. The specified user does not exist.\n");
});

T.run();
