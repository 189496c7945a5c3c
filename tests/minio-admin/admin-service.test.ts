// mc admin service restart|stop|freeze|unfreeze, admin update, admin user
// policy and admin accesskey sts-revoke against a recording endpoint,
// compared request by request with the reference driver (madmin-go v2.0.7;
// sts-revoke as madmin-go v3 sends it) (issue 25).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer } from "./go-driver.js";
import { differential, startAdminFixture } from "./fixture.js";
import type { Answer, Recorded } from "./recorder.js";

const fx = await startAdminFixture();
const [update, serverInfo, userInfo] = await Promise.all([cannedAnswer("server-update"), cannedAnswer("server-info"), cannedAnswer("user-info")]);

const readwrite = { Effect: "Allow", Action: ["s3:*"], Resource: ["arn:aws:s3:::*"] };
const answers = (req: Recorded): Answer => {
  const p = req.path.replace("/minio/admin/v3", "");
  if (p === "/update") return { body: update };
  if (p === "/info") return { body: serverInfo };
  if (p === "/user-info") return { body: userInfo };
  if (p === "/info-canned-policy") {
    const name = new URLSearchParams(req.query).get("name") ?? "";
    const statements = name === "readwrite" ? [readwrite] : [readwrite, { Effect: "Allow", Action: ["admin:Prometheus", "admin:ServerInfo"], Resource: ["arn:aws:s3:::*"] }];
    return { body: JSON.stringify({ PolicyName: name, Policy: { Version: "2012-10-17", Statement: statements } }) };
  }
  if (p.startsWith("/revoke-tokens/")) return { status: 204 };
  return {};
};

const T = suite("mc admin service|update|user policy|accesskey sts-revoke (differential against the reference driver)");
T.after(() => fx.stop());

T("service stop|freeze|unfreeze|restart and update: POST /service?action=…, restart then /info until online; POST /update?updateURL=…", async () => {
  for (const [action, text] of [["stop", "Stopped `minio` successfully."], ["freeze", "Freeze command successfully sent to `minio`."], ["unfreeze", "Unfreeze command successfully sent to `minio`."]] as const) {
    const r = await differential(fx, { op: "service", args: { action }, mc: ["admin", "service", action, "minio"], responder: answers });
    assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["POST", "/minio/admin/v3/service", [["action", action]]]]);
    assert.is(r.ours.stdout, `${text}\n`);
  }
  const restart = await differential(fx, { op: "service", args: { action: "restart" }, mc: ["admin", "service", "restart", "minio", "--json"], responder: answers });
  assert.equal(restart.requests.map((q) => [q.method, q.path, q.query]), [["POST", "/minio/admin/v3/service", [["action", "restart"]]], ["GET", "/minio/admin/v3/info", []]]);
  assert.equal(jsonLines(restart.ours.stdout), [{ status: "success", serverURL: "minio" }, { status: "success", serverURL: "minio" }]);
  const up = await differential(fx, { op: "server-update", args: { url: "https://127.0.0.1:1/minio.sha256sum" }, mc: ["admin", "update", "minio", "https://127.0.0.1:1/minio.sha256sum"], responder: answers });
  assert.equal(up.requests.map((q) => [q.method, q.path, q.query]), [["POST", "/minio/admin/v3/update", [["updateURL", "https://127.0.0.1:1/minio.sha256sum"]]]]);
  assert.is(up.ours.stdout, "Server `minio` updated successfully from 2024-01-01T00-00-00Z to 2024-06-01T00-00-00Z\n");
  const uj = await fx.mc(["admin", "update", "minio", "--json", "--yes"]);
  assert.equal(jsonLines(uj.stdout), [{ status: "success", serverURL: "minio", currentVersion: "2024-01-01T00-00-00Z", updatedVersion: "2024-06-01T00-00-00Z" }]);
});

T("user policy: user-info then info-canned-policy of each of its policies; their statements merged, each once. sts-revoke: POST /revoke-tokens/builtin (madmin v3)", async () => {
  const p = await differential(fx, { op: "user-policy", args: { user: "alice" }, mc: ["admin", "user", "policy", "minio", "alice"], responder: answers });
  assert.equal(p.requests.map((q) => [q.path, q.query]), [["/minio/admin/v3/user-info", [["accessKey", "alice"]]], ["/minio/admin/v3/info-canned-policy", [["name", "readwrite"], ["v", "2"]]], ["/minio/admin/v3/info-canned-policy", [["name", "diagnostics"], ["v", "2"]]]]);
  assert.is(p.ours.stdout, `${JSON.stringify({ Version: "2012-10-17", Statement: [readwrite, { Effect: "Allow", Action: ["admin:Prometheus", "admin:ServerInfo"], Resource: ["arn:aws:s3:::*"] }] })}\n`);
  const all = await differential(fx, { op: "sts-revoke", args: { user: "user 1+#", all: true }, mc: ["admin", "accesskey", "sts-revoke", "minio", "user 1+#", "--all"], responder: answers });
  assert.equal(all.requests.map((q) => [q.method, q.path, q.query]), [["POST", "/minio/admin/v3/revoke-tokens/builtin", [["fullRevoke", "true"], ["tokenRevokeType", ""], ["user", "user 1+#"]]]]);
  assert.is(all.ours.stdout, "Successfully revoked all STS accounts for user user 1+#\n");
  const typed = await differential(fx, { op: "sts-revoke", args: { tokenType: "app-1" }, mc: ["admin", "accesskey", "sts-revoke", "minio", "--self", "--token-type", "app-1", "--json"], responder: answers });
  assert.equal(typed.requests[0]?.query, [["tokenRevokeType", "app-1"], ["user", ""]]);
  assert.equal(jsonLines(typed.ours.stdout), [{ status: "success", user: "", tokenRevokeType: "app-1" }]);
  fx.recorder.clear();
  for (const [args, says] of [
    [["minio", "bob"], "Exactly one of --all or --token-type must be specified."],
    [["minio", "bob", "--all", "--token-type", "x"], "Exactly one of --all or --token-type must be specified."],
    [["minio", "--all"], "Must specify user or use --self flag."],
    [["minio", "bob", "--self"], "Cannot specify user with --self flag."],
  ] as const) {
    const r = await fx.mc(["admin", "accesskey", "sts-revoke", ...args]);
    assert.is(r.code, 1, args.join(" "));
    assert.is(r.stderr, `mc: <ERROR> ${says}\n`);
  }
  assert.is(fx.recorder.requests.length, 0);
});

T.run();
