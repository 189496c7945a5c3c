// mc admin accesskey info|edit|enable|disable|remove against a recording
// endpoint, compared request by request with the reference driver's
// operations of the same calls (ops_idp.go; madmin-go v3's info-access-key
// and update-service-account fields) (issue 25).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { cannedAnswer, referenceEncrypt } from "./go-driver.js";
import { differential, keys, startAdminFixture } from "./fixture.js";
import type { Answer, Recorded } from "./recorder.js";

const fx = await startAdminFixture();
const info = await referenceEncrypt(keys.secret, await cannedAnswer("accesskey-info"));
const list = await referenceEncrypt(keys.secret, await cannedAnswer("ldap-accesskey-list"));
const created = await referenceEncrypt(keys.secret, await cannedAnswer("accesskey-create"));
const answers = (req: Recorded): Answer => {
  if (req.path.endsWith("/info-access-key")) return { body: info };
  if (req.path.endsWith("/list-access-keys-bulk")) return { body: list };
  if (req.path.endsWith("/add-service-account")) return { body: created };
  return { status: 204 };
};
const enc = (req: Recorded): boolean => req.path.endsWith("/update-service-account");

const T = suite("mc admin accesskey (differential against the reference driver)");
T.after(() => fx.stop());

T("accesskey info|edit|enable|disable|remove: the same requests as the reference; real mc's text", async () => {
  const i = await differential(fx, { op: "accesskey-info", args: { accessKey: "K1 +#" }, mc: ["admin", "accesskey", "info", "minio", "K1 +#"], responder: answers });
  assert.equal(i.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/info-access-key", [["accessKey", "K1 +#"]]]]);
  assert.match(i.ours.stdout, /^Access Key: K1 \+#\nParent User: uid=alice,dc=example,dc=org\nStatus: disabled\n/);
  const e = await differential(fx, { op: "accesskey-edit", args: { accessKey: "K1", name: "renamed", description: "d" }, mc: ["admin", "accesskey", "edit", "minio", "K1", "--name", "renamed", "--description", "d"], encrypted: enc, responder: answers });
  assert.equal(e.requests[0]?.body, { newName: "renamed", newDescription: "d" });
  for (const [verb, status] of [["enable", "on"], ["disable", "off"]] as const) {
    const r = await differential(fx, { op: "accesskey-status", args: { accessKey: "K1", status }, mc: ["admin", "accesskey", verb, "minio", "K1"], encrypted: enc, responder: answers });
    assert.equal(r.requests[0]?.body, { newStatus: status });
  }
  const rm = await differential(fx, { op: "accesskey-remove", args: { accessKey: "K1" }, mc: ["admin", "accesskey", "rm", "minio", "K1"], responder: answers });
  assert.equal(rm.requests.map((q) => `${q.method} ${q.path}`), ["DELETE /minio/admin/v3/delete-service-account"]);
  assert.is(rm.ours.stdout, "Successfully removed access key `K1`.\n");
});

T("accesskey list: GET list-access-keys-bulk (--all tried first, users as `users`); real mc's text by user", async () => {
  const all = await differential(fx, { op: "accesskey-list", args: { listType: "all", all: true }, mc: ["admin", "accesskey", "list", "minio"], responder: answers });
  assert.equal(all.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/list-access-keys-bulk", [["all", "true"], ["listType", "all"]]]]);
  assert.is(all.ours.stdout, "User: uid=alice,dc=example,dc=org\n  Access Keys:\n    STSALICE1, expires: never, sts: true\n    SVCALICE1, expires: never, sts: false\n\n");
  const some = await differential(fx, { op: "accesskey-list", args: { listType: "sts-only", users: ["bob", "a b+#"] }, mc: ["admin", "accesskey", "ls", "minio", "bob", "a b+#", "--temp-only"], responder: answers });
  assert.equal(some.requests[0]?.query, [["listType", "sts-only"], ["users", "a b+#"], ["users", "bob"]]);
});

T("accesskey create: PUT add-service-account (v3 body, epoch = no expiry), both ways encrypted; the new keys in real mc's text", async () => {
  const r = await differential(fx, {
    op: "accesskey-create",
    args: { targetUser: "bob", accessKey: "NEWKEY123", secretKey: "NEWSECRET123456789", name: "ci" },
    mc: ["admin", "accesskey", "create", "minio", "bob", "--access-key", "NEWKEY123", "--secret-key", "NEWSECRET123456789", "--name", "ci"],
    encrypted: true,
    responder: answers,
  });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.body]), [["PUT", "/minio/admin/v3/add-service-account", { targetUser: "bob", accessKey: "NEWKEY123", secretKey: "NEWSECRET123456789", name: "ci", expiration: "1970-01-01T00:00:00Z" }]]);
  assert.is(r.ours.stdout, "Access Key: NEWKEY123\nSecret Key: NEWSECRET123456789\nExpiration: NONE\nName: ci\nDescription: \n\n");
});

T.run();
