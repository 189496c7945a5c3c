// mc ilm tier add|list|info|update|check|remove against a recording endpoint,
// compared request by request with madmin-go doing the same (issue 24);
// canned answers from the library's types printed in real mc's shapes.
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
const tiers = await cannedAnswer("tiers");
const stats = await cannedAnswer("tier-stats");
const work = await mkdtemp(join(tmpdir(), "mc-tier-"));
const json = { "content-type": "application/json" };

const minio = (req: Recorded): Answer => {
  if (req.path === "/minio/admin/v3/tier" && req.method === "GET") return { headers: json, body: tiers };
  if (req.path === "/minio/admin/v3/tier-stats") return { headers: json, body: stats };
  if (req.path.startsWith("/minio/admin/v3/tier")) return { status: 204 };
  return { status: 400, body: "unexpected request" };
};

const T = suite("mc ilm tier (differential against madmin-go)");
T.after(async () => {
  await fx.stop();
  await rm(work, { recursive: true, force: true });
});

T("ilm tier add minio: PUT /tier with madmin's TierConfig encrypted, the name in upper case; real mc's text and JSON", async () => {
  const tier = { Version: "v1", Type: "minio", Name: "WARM", MinIO: { Endpoint: "https://warm.example.net:9000", AccessKey: "WARMKEY", SecretKey: "warm+secret/é", Bucket: "cold", Prefix: "photos/", Region: "eu-west-1" } };
  const args = ["ilm", "tier", "add", "minio", "minio", "warm", "--endpoint", "https://warm.example.net:9000", "--access-key", "WARMKEY", "--secret-key", "warm+secret/é", "--bucket", "cold", "--prefix", "photos/", "--region", "eu-west-1"];
  const r = await differential(fx, { op: "tier-add", args: { tier }, mc: args, responder: minio, encrypted: true });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.contentType, q.body]), [["PUT", "/minio/admin/v3/tier", "", tier]]);
  assert.is(r.ours.stdout, "Added remote tier WARM of type minio\n");
  const j = await fx.mc([...args, "--json"]);
  assert.equal(jsonLines(j.stdout), [{ status: "success", tierName: "WARM", tierType: "minio", tierEndpoint: "https://warm.example.net:9000", bucket: "cold", prefix: "photos/", region: "eu-west-1" }]);
});

T("ilm tier add s3, azure and gcs: the bodies madmin's NewTierS3/NewTierAzure/NewTierGCS make (defaults included)", async () => {
  const s3 = { Version: "v1", Type: "s3", Name: "GLACIER", S3: { Endpoint: "https://s3.amazonaws.com", AccessKey: "AKIA", SecretKey: "s", Bucket: "archive", StorageClass: "REDUCED_REDUNDANCY" } };
  await differential(fx, { op: "tier-add", args: { tier: s3 }, mc: ["ilm", "tier", "add", "s3", "minio", "glacier", "--access-key", "AKIA", "--secret-key", "s", "--bucket", "archive", "--storage-class", "REDUCED_REDUNDANCY"], responder: minio, encrypted: true });
  const az = { Version: "v1", Type: "azure", Name: "AZ", Azure: { Endpoint: "http://blob.core.windows.net", AccountName: "acct", AccountKey: "k==", Bucket: "c", Prefix: "p/" } };
  await differential(fx, { op: "tier-add", args: { tier: az }, mc: ["ilm", "tier", "add", "azure", "minio", "az", "--account-name", "acct", "--account-key", "k==", "--bucket", "c", "--prefix", "p/"], responder: minio, encrypted: true });
  const file = join(work, "credentials.json");
  const credsJson = "{\"type\":\"service_account\",\"project_id\":\"p?>\"}";
  await writeFile(file, credsJson);
  const gcs = { Version: "v1", Type: "gcs", Name: "GCS", GCS: { Endpoint: "https://storage.googleapis.com/", Creds: Buffer.from(credsJson).toString("base64").replace(/\+/g, "-").replace(/\//g, "_"), Bucket: "g" } };
  assert.is((gcs.GCS.Creds.length % 4), 0);
  const r = await differential(fx, { op: "tier-add", args: { tier: gcs }, mc: ["ilm", "tier", "add", "gcs", "minio", "gcs", "--credentials-file", file, "--bucket", "g"], responder: minio, encrypted: true });
  assert.match(JSON.stringify(r.requests[0]?.body), /"Creds":"[A-Za-z0-9_-]+=*"/);
});

T("ilm tier add --force: PUT /tier?force=true (madmin v3's AddTierIgnoreInUse)", async () => {
  fx.recorder.respond(minio);
  fx.recorder.clear();
  const r = await fx.mc(["ilm", "tier", "add", "minio", "minio", "warm", "--endpoint", "https://w", "--access-key", "a", "--secret-key", "b", "--bucket", "c", "--force"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(fx.recorder.requests[0]?.query, "force=true");
});

T("ilm tier add: missing settings and wrong arguments fail in one line before anything is sent", async () => {
  fx.recorder.clear();
  const cases: [string[], string][] = [
    [["minio", "minio", "w", "--endpoint", "https://w", "--bucket", "c"], "MinIO remote tier requires access credentials"],
    [["minio", "minio", "w", "--access-key", "a", "--secret-key", "b", "--bucket", "c"], "MinIO remote tier requires target endpoint"],
    [["s3", "minio", "w", "--bucket", "c"], "No authentication mechanism was provided"],
    [["s3", "minio", "w", "--access-key", "a", "--bucket", "c"], "Both --access-key and --secret-key are required to enable static credentials authentication"],
    [["s3", "minio", "w", "--access-key", "a", "--secret-key", "b", "--bucket", "c", "--storage-class", "GLACIER"], "unsupported storage-class type GLACIER"],
    [["gcs", "minio", "w", "--credentials-file", join(work, "nosuch.json"), "--bucket", "c"], "Unable to read credentials file at"],
    [["minio", "minio", "w", "x", "--endpoint", "https://w"], "Incorrect number of arguments for tier add command"],
  ];
  for (const [args, says] of cases) {
    const r = await fx.mc(["ilm", "tier", "add", ...args]);
    assert.is(r.code, 1, args.join(" "));
    assert.ok(r.stderr.startsWith(`mc: <ERROR> ${says}`), r.stderr);
    assert.is(r.stderr.split("\n").length, 2, r.stderr);
  }
  assert.is(fx.recorder.requests.length, 0);
});

T("ilm tier list: GET /tier; upstream's table and {status,tiers} JSON", async () => {
  const r = await differential(fx, { op: "tier-list", mc: ["ilm", "tier", "list", "minio"], responder: minio });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), ["GET /minio/admin/v3/tier"]);
  const lines = r.ours.stdout.split("\n");
  assert.is(lines[0], "Name     |Type   |Endpoint                       |Bucket   |Prefix   |Region     |Storage-Class       ");
  assert.is(lines[1], "WARM     |minio  |https://warm.example.net:9000  |cold     |photos/  |eu-west-1  |                    ");
  assert.is(lines[2], "GLACIER  |s3     |https://s3.amazonaws.com       |archive  |         |           |REDUCED_REDUNDANCY  ");
  assert.is(r.ours.stdout.slice(-2), "\n\n");
  const j = await fx.mc(["ilm", "tier", "ls", "minio", "--json"]);
  assert.equal(jsonLines(j.stdout), [JSON.parse(r.reference.stdout.toString()) as Record<string, unknown>]);
  fx.recorder.respond(() => ({ headers: json, body: "[]" }));
  assert.is((await fx.mc(["ilm", "tier", "list", "minio"])).stdout, "No remote tier has been configured\n");
  fx.recorder.respond(() => ({ headers: json, body: "[{\"Version\":\"v9\",\"Type\":\"s3\",\"Name\":\"X\"}]" }));
  const bad = await fx.mc(["ilm", "tier", "list", "minio"]);
  assert.is(bad.code, 1);
  assert.is(bad.stderr, "mc: <ERROR> Unable to list configured remote tier targets. invalid tier config version.\n");
});

T("ilm tier info: GET /tier-stats; upstream's bordered table, the name filter and JSON", async () => {
  const r = await differential(fx, { op: "tier-stats", mc: ["ilm", "tier", "info", "minio"], responder: minio });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), ["GET /minio/admin/v3/tier-stats"]);
  assert.is(
    r.ours.stdout,
    [
      "┌─────────┬────────┬────┬───────┬───────┬────────┐",
      "│Tier Name│  API   │Type│ Usage │Objects│Versions│",
      "├─────────┼────────┼────┼───────┼───────┼────────┤",
      "│STANDARD │internal│hot │5.0 MiB│     12│      14│",
      "│  WARM   │ minio  │warm│1.5 KiB│      3│       3│",
      "└─────────┴────────┴────┴───────┴───────┴────────┘",
      "",
    ].join("\n"),
  );
  const one = await fx.mc(["ilm", "tier", "info", "minio", "NONE"]);
  assert.is(one.stdout, "No remote tiers' name match NONE\n");
  const j = await fx.mc(["ilm", "tier", "info", "minio", "--json"]);
  const [msg] = jsonLines(j.stdout) as { status: string; tiers: { Name: string; API: string; Type: string }[] }[];
  assert.equal(msg?.tiers.map((t) => [t.Name, t.API, t.Type]), [["STANDARD", "internal", "hot"], ["WARM", "minio", "warm"]]);
});

T("ilm tier update: POST /tier/NAME with madmin's TierCreds encrypted (keys, AWS role, GCS file)", async () => {
  const r = await differential(fx, { op: "tier-edit", args: { tierName: "WARM", creds: { access: "NEW", secret: "new-secret" } }, mc: ["ilm", "tier", "update", "minio", "WARM", "--access-key", "NEW", "--secret-key", "new-secret"], responder: minio, encrypted: true });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.body]), [["POST", "/minio/admin/v3/tier/WARM", { access: "NEW", secret: "new-secret", awsrole: false }]]);
  assert.is(r.ours.stdout, "Updated remote tier WARM\n");
  await differential(fx, { op: "tier-edit", args: { tierName: "GLACIER", creds: { awsrole: true } }, mc: ["ilm", "tier", "update", "minio", "GLACIER", "--use-aws-role"], responder: minio, encrypted: true });
  const file = join(work, "new-creds.json");
  await writeFile(file, "{\"k\":\"v\"}");
  await differential(fx, { op: "tier-edit", args: { tierName: "GCS", creds: { creds: Buffer.from("{\"k\":\"v\"}").toString("base64") } }, mc: ["ilm", "tier", "edit", "minio", "GCS", "--credentials-file", file], responder: minio, encrypted: true });
  const none = await fx.mc(["ilm", "tier", "update", "minio", "GCS"]);
  assert.is(none.stderr, "mc: <ERROR> Insufficient credential information supplied to update remote tier target credentials.\n");
});

T("ilm tier check and remove: GET and DELETE /tier/NAME (204); real mc's text and JSON; --force needs --dangerous", async () => {
  const c = await differential(fx, { op: "tier-verify", args: { tierName: "WARM" }, mc: ["ilm", "tier", "check", "minio", "WARM"], responder: minio });
  assert.equal(c.requests.map((q) => `${q.method} ${q.path}`), ["GET /minio/admin/v3/tier/WARM"]);
  assert.is(c.ours.stdout, "Remote tier connectivity check for WARM was successful\n");
  const r = await differential(fx, { op: "tier-remove", args: { tierName: "WARM" }, mc: ["ilm", "tier", "rm", "minio", "WARM"], responder: minio });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), ["DELETE /minio/admin/v3/tier/WARM"]);
  assert.is(r.ours.stdout, "Removed remote tier WARM\n");
  const j = await fx.mc(["ilm", "tier", "remove", "minio", "WARM", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ status: "success", tierName: "WARM", tierType: "", tierEndpoint: "", bucket: "" }]);
  fx.recorder.clear();
  const f = await fx.mc(["ilm", "tier", "remove", "minio", "WARM", "--force"]);
  assert.is(f.code, 1);
  assert.match(f.stderr, /retry this command with ‘--force’ and ‘--dangerous’ flags/);
  assert.is(fx.recorder.requests.length, 0);
  await fx.mc(["ilm", "tier", "remove", "minio", "WARM", "--force", "--dangerous"]);
  assert.is(fx.recorder.requests[0]?.query, "force=true");
});

T("MinIO refusing: its JSON error in one line with the code; an answer encrypted by the reference is not taken as plain JSON", async () => {
  fx.recorder.respond(() => ({ status: 400, headers: json, body: JSON.stringify({ Code: "XMinioAdminTierNotFound", Message: "Specified remote tier was not found", RequestId: "1" }) }));
  const r = await fx.mc(["ilm", "tier", "check", "minio", "NOPE"]);
  assert.is(r.stderr, "mc: <ERROR> Unable to verify remote tier target NOPE. Specified remote tier was not found.\n");
  const enc = await referenceEncrypt(keys.secret, tiers);
  fx.recorder.respond(() => ({ headers: json, body: enc }));
  const l = await fx.mc(["ilm", "tier", "list", "minio"]);
  assert.is(l.code, 1);
});

T.run();
