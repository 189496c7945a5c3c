// mc admin config get|set|reset|history|restore|export|import against a
// recording endpoint, compared request by request with the reference driver
// (madmin-go v2.0.7's configuration calls) (issue 25).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer, referenceEncrypt } from "./go-driver.js";
import { differential, keys, startAdminFixture } from "./fixture.js";
import type { Answer, Recorded } from "./recorder.js";

const fx = await startAdminFixture();
const configText = "# MINIO_NOTIFY_WEBHOOK_ENABLE_PRIMARY=on\nnotify_webhook:primary endpoint=\"http://127.0.0.1:8080/events\" auth_token= queue_limit=10000\nnotify_webhook endpoint= queue_dir=\"/var/q dir\"\n";
const [helpKeys, helpWebhook, history, sealedConfig, sealedHistory] = await Promise.all([
  cannedAnswer("config-help-keys"),
  cannedAnswer("config-help-webhook"),
  cannedAnswer("config-history"),
  referenceEncrypt(keys.secret, Buffer.from(configText)),
  cannedAnswer("config-history").then((h) => referenceEncrypt(keys.secret, h)),
]);

const answers = (req: Recorded): Answer => {
  const p = req.path.replace("/minio/admin/v3", "");
  if (p === "/help-config-kv") return { body: new URLSearchParams(req.query).get("subSys") === "" ? helpKeys : helpWebhook };
  if (p === "/get-config-kv" || p === "/config") return req.method === "GET" ? { body: sealedConfig } : {};
  if (p === "/list-config-history-kv") return { body: sealedHistory };
  if (p === "/set-config-kv") return { headers: { "x-minio-config-applied": "true" } };
  return {};
};
const enc = (req: Recorded): boolean => ["/set-config-kv", "/del-config-kv", "/config"].some((p) => req.path.endsWith(p)) && req.method !== "GET";

const T = suite("mc admin config (differential against the reference driver)");
T.after(() => fx.stop());

T("config get: help-config-kv without a key; get-config-kv (decrypted) with one; --json parsed as madmin's ParseServerConfigOutput", async () => {
  const keysHelp = await differential(fx, { op: "config-help", args: {}, mc: ["admin", "config", "get", "minio/"], responder: answers });
  assert.equal(keysHelp.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/help-config-kv", [["key", ""], ["subSys", ""]]]]);
  assert.is(keysHelp.ours.stdout, "KEYS:\napi             manage global HTTP API call specific features, such as throttling, authentication types, etc.\nnotify_webhook  publish bucket notifications to webhook endpoints\nregion          label the location of the server\n");
  const get = await differential(fx, { op: "config-get", args: { key: "notify_webhook" }, mc: ["admin", "config", "get", "minio", "notify_webhook"], responder: answers });
  assert.equal(get.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/get-config-kv", [["key", "notify_webhook"]]]]);
  assert.is(get.ours.stdout, `${configText}\n`);
  const reference = JSON.parse(get.reference.stdout.toString()) as { config: unknown };
  const j = await fx.mc(["admin", "config", "get", "minio", "notify_webhook", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ status: "success", config: reference.config }]);
  // Two words are one key (upstream joins them with a space).
  const two = await differential(fx, { op: "config-get", args: { key: "notify_webhook primary" }, mc: ["admin", "config", "get", "minio", "notify_webhook", "primary"], responder: answers });
  assert.equal(two.requests[0]?.query, [["key", "notify_webhook primary"]]);
});

T("config set|reset: the kv text encrypted to set-config-kv / del-config-kv; help when no `=`; restart advice only when the server did not apply it", async () => {
  const set = await differential(fx, { op: "config-set", args: { kv: "region name=us-west-1 comment=\"a b\"" }, mc: ["admin", "config", "set", "minio", "region", "name=us-west-1", "comment=\"a b\""], encrypted: enc, responder: answers });
  assert.equal(set.requests.map((q) => [q.method, q.path, q.body]), [["PUT", "/minio/admin/v3/set-config-kv", "region name=us-west-1 comment=\"a b\""]]);
  assert.is(set.ours.stdout, "Successfully applied new settings.\n");
  const help = await differential(fx, { op: "config-help", args: { subSys: "notify_webhook", key: "", env: true }, mc: ["admin", "config", "set", "minio", "notify_webhook", "--env"], responder: answers });
  assert.equal(help.requests[0]?.query, [["env", ""], ["key", ""], ["subSys", "notify_webhook"]]);
  assert.is(help.ours.stdout, "KEY:\nnotify_webhook[:name]  publish bucket notifications to webhook endpoints\n\nARGS:\nendpoint*    (url)     webhook server endpoint e.g. http://localhost:8080/minio/events\nauth_token   (string)  opaque string or JWT authorization token\nqueue_limit  (number)  maximum limit for undelivered messages, defaults to '100000'\n");
  const hj = await fx.mc(["admin", "config", "set", "minio", "notify_webhook", "--json"]);
  assert.equal(jsonLines(hj.stdout), [{ status: "success", help: JSON.parse(helpWebhook.toString()) as unknown }]);
  const reset = await differential(fx, { op: "config-reset", args: { kv: "notify_webhook:primary queue_limit" }, mc: ["admin", "config", "reset", "minio/", "notify_webhook:primary", "queue_limit"], encrypted: enc, responder: answers });
  assert.equal(reset.requests.map((q) => [q.method, q.path, q.body]), [["DELETE", "/minio/admin/v3/del-config-kv", "notify_webhook:primary queue_limit"]]);
  assert.is(reset.ours.stdout, "Key is successfully reset.\nPlease restart your server with `mc admin service restart minio/`.\n\n");
});

T("config history|restore|export|import: list (count, decrypted), clear all, restore by id, GET/PUT /config with the text encrypted", async () => {
  const h = await differential(fx, { op: "config-history", args: { count: 3 }, mc: ["admin", "config", "history", "minio", "-n", "3"], responder: answers });
  assert.equal(h.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/list-config-history-kv", [["count", "3"]]]]);
  assert.is(h.ours.stdout, "RestoreId: 2a57b8e6-8d4e-4e26-a8a4-3f5b9bd25c1f\nDate: Mon, 04 Mar 2024 05:06:07 GMT\n\nregion name=us-west-1\n\nRestoreId: 9d0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b\nDate: Tue, 05 Mar 2024 06:07:08 GMT\n\ncompression enable=on extensions=.txt,.csv\n\n\n");
  const hj = await fx.mc(["admin", "config", "history", "minio", "--json"]);
  const [first] = (JSON.parse(history.toString()) as { restoreId: string }[]);
  assert.equal((jsonLines(hj.stdout)[0]?.["entries"] as { restoreId: string }[])[0]?.restoreId, first?.restoreId);
  const clear = await differential(fx, { op: "config-history-clear", mc: ["admin", "config", "history", "minio", "--clear"], responder: answers });
  assert.equal(clear.requests.map((q) => [q.method, q.path, q.query]), [["DELETE", "/minio/admin/v3/clear-config-history-kv", [["restoreId", "all"]]]]);
  const r = await differential(fx, { op: "config-restore", args: { id: "2a57b8e6 +#" }, mc: ["admin", "config", "restore", "minio", "2a57b8e6 +#"], responder: answers });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["PUT", "/minio/admin/v3/restore-config-history-kv", [["restoreId", "2a57b8e6 +#"]]]]);
  assert.is(r.ours.stdout, "Please restart your server with `mc admin service restart minio`.\nRestored 2a57b8e6 +# kv successfully.\n");
  const ex = await differential(fx, { op: "config-export", mc: ["admin", "config", "export", "minio"], responder: answers });
  assert.equal(ex.requests.map((q) => [q.method, q.path]), [["GET", "/minio/admin/v3/config"]]);
  assert.is(ex.ours.stdout, `${configText}\n`);
  const im = await differential(fx, { op: "config-import", args: { payload: configText }, mc: ["admin", "config", "import", "minio"], input: configText, encrypted: enc, responder: answers });
  assert.equal(im.requests.map((q) => [q.method, q.path, q.body]), [["PUT", "/minio/admin/v3/config", configText]]);
  assert.is(im.ours.stdout, "Setting new key has been successful.\nPlease restart your server with `mc admin service restart minio`.\n\n");
  // More than madmin reads (256 KiB): refused, nothing sent.
  fx.recorder.clear();
  const big = await fx.mc(["admin", "config", "import", "minio"], { input: "x".repeat(256 * 1024 + 1) });
  assert.is(big.code, 1);
  assert.match(big.stderr, /^mc: <ERROR> Unable to set server config\. bytes\.Buffer: too large\.\n$/);
  assert.is(fx.recorder.requests.length, 0);
});

T.run();
