// mc admin policy … against a recording endpoint, compared request by request
// with the reference driver (issue 25). attach/detach are madmin-go v3's
// (200 with an encrypted association), sent by the driver through v2.0.7's
// ExecuteMethod and EncryptData.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer, referenceEncrypt } from "./go-driver.js";
import { differential, keys, startAdminFixture } from "./fixture.js";
import type { Answer, Recorded } from "./recorder.js";

const fx = await startAdminFixture();
const dir = await mkdtemp(join(tmpdir(), "mc-admin-policy-"));
const [list, info, assoc, entities] = await Promise.all([cannedAnswer("policy-list"), cannedAnswer("policy-info"), cannedAnswer("policy-association").then((b) => referenceEncrypt(keys.secret, b)), cannedAnswer("ldap-entities").then((b) => referenceEncrypt(keys.secret, b))]);
const answers = (req: Recorded): Answer => {
  const p = req.path.replace("/minio/admin/v3", "");
  if (p === "/list-canned-policies") return { body: list };
  if (p === "/info-canned-policy") return { body: info };
  if (p.startsWith("/idp/builtin/policy/")) return { body: assoc };
  if (p === "/idp/builtin/policy-entities") return { body: entities };
  return {};
};
const enc = (req: Recorded): boolean => req.path.includes("/idp/builtin/policy/");

const T = suite("mc admin policy (differential against the reference driver)");
T.after(async () => {
  await fx.stop();
  await rm(dir, { recursive: true, force: true });
});

T("policy create|remove: PUT add-canned-policy with the file's bytes, DELETE remove-canned-policy; real mc's text", async () => {
  const doc = '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:PutObject"],"Resource":["arn:aws:s3:::*"]}]}';
  const file = join(dir, "writeonly.json");
  await writeFile(file, doc);
  const c = await differential(fx, { op: "policy-create", args: { name: "write only+#", doc }, mc: ["admin", "policy", "create", "minio", "write only+#", file], responder: answers });
  assert.equal(c.requests.map((q) => [q.method, q.path, q.query]), [["PUT", "/minio/admin/v3/add-canned-policy", [["name", "write only+#"]]]]);
  assert.is(c.ours.stdout, "Created policy `write only+#` successfully.\n");
  const r = await differential(fx, { op: "policy-remove", args: { name: "writeonly" }, mc: ["admin", "policy", "rm", "minio", "writeonly"], responder: answers });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), ["DELETE /minio/admin/v3/remove-canned-policy"]);
  assert.is(r.ours.stdout, "Removed policy `writeonly` successfully.\n");
});

T("policy list|info: the same GETs (info with v=2); canned answers in real mc's text and JSON; --policy-file gets the document", async () => {
  const l = await differential(fx, { op: "policy-list", mc: ["admin", "policy", "ls", "minio"], responder: answers });
  assert.is(l.ours.stdout, "diagnostics\nreadwrite\n");
  const i = await differential(fx, { op: "policy-info", args: { name: "readonly" }, mc: ["admin", "policy", "info", "minio", "readonly"], responder: answers });
  assert.equal(i.requests[0]?.query, [["name", "readonly"], ["v", "2"]]);
  const shown = JSON.parse(i.ours.stdout) as Record<string, unknown>;
  assert.equal(shown, JSON.parse(i.reference.stdout.toString()));
  const out = join(dir, "readonly.json");
  const j = await fx.mc(["admin", "policy", "info", "minio", "readonly", "--policy-file", out, "--json"]);
  const [m] = jsonLines(j.stdout) as { policy: string; policyInfo: { PolicyName: string } }[];
  assert.equal([m?.policy, m?.policyInfo.PolicyName], ["readonly", "readonly"]);
  assert.equal(JSON.parse(await readFile(out, "utf8")), { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::*"] }] });
});

T("policy attach|detach|entities: POST idp/builtin/policy/attach|detach encrypted, GET policy-entities; real mc's text", async () => {
  const a = await differential(fx, { op: "policy-attach", args: { policies: ["readonly", "diagnostics"], user: "james" }, mc: ["admin", "policy", "attach", "minio", "readonly", "diagnostics", "--user", "james"], encrypted: enc, responder: answers });
  assert.equal(a.requests.map((q) => [q.method, q.path, q.body]), [["POST", "/minio/admin/v3/idp/builtin/policy/attach", { policies: ["readonly", "diagnostics"], user: "james" }]]);
  assert.is(a.ours.stdout, "Attached Policies: [readwrite]\nTo User: james\n\n");
  const d = await differential(fx, { op: "policy-detach", args: { policies: ["readonly"], group: "legal" }, mc: ["admin", "policy", "detach", "minio", "readonly", "--group", "legal"], encrypted: enc, responder: answers });
  assert.equal(d.requests[0]?.body, { policies: ["readonly"], group: "legal" });
  const e = await differential(fx, { op: "policy-entities", args: { users: ["bob"], policies: ["readwrite"] }, mc: ["admin", "policy", "entities", "minio", "--user", "bob", "--policy", "readwrite"], responder: answers });
  assert.equal(e.requests[0]?.query, [["policy", "readwrite"], ["user", "bob"]]);
  assert.match(e.ours.stdout, /^Query time: 2024-01-02T03:04:05Z\nUser -> Policy Mappings:\n/);
  const bad = await fx.mc(["admin", "policy", "attach", "minio", "readonly"]);
  assert.is(bad.code, 1);
  assert.is(bad.stderr, "mc: <ERROR> Invalid policy attach arguments. no user or group association was given.\n");
});

T.run();
