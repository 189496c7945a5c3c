// MinIO-only flags of plain S3 commands (issue 24), compared request by
// request with minio-go doing the same: `version enable --excluded-prefixes
// --exclude-folders` (MinIO's versioning XML extension).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { differential, startAdminFixture, type Normalized } from "./fixture.js";

const fx = await startAdminFixture();
/** minio-go addresses a bucket as `/BUCKET/`, the SDK our S3 commands use as `/BUCKET`: the same S3 resource. */
const bucketPath = (n: Normalized): Normalized => ({ ...n, path: n.path.replace(/\/$/, "") });

const T = suite("MinIO-only flags (differential against minio-go)");
T.after(() => fx.stop());

T("version enable --excluded-prefixes --exclude-folders: PUT ?versioning with MinIO's extension, as minio-go writes it", async () => {
  const r = await differential(fx, {
    op: "version-enable",
    args: { bucket: "photos", prefixes: ["app1/*/_temporary/", "app2/<&>/"], folders: true },
    mc: ["version", "enable", "minio/photos", "--excluded-prefixes", "app1/*/_temporary/,app2/<&>/", "--exclude-folders"],
    mask: bucketPath,
  });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["PUT", "/photos", [["versioning", ""]]]]);
  assert.is(r.requests[0]?.body, "<VersioningConfiguration><Status>Enabled</Status><ExcludedPrefixes><Prefix>app1/*/_temporary/</Prefix></ExcludedPrefixes><ExcludedPrefixes><Prefix>app2/&lt;&amp;&gt;/</Prefix></ExcludedPrefixes><ExcludeFolders>true</ExcludeFolders></VersioningConfiguration>");
  assert.ok(r.requests[0]?.signedHeaders.includes("content-md5"));
  assert.is(r.ours.stdout, "minio/photos versioning is enabled\n");
  const j = await fx.mc(["version", "enable", "minio/photos", "--exclude-folders", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ Op: "enable", status: "success", url: "minio/photos", versioning: { status: "Enabled", MFADelete: "", ExcludeFolders: true } }]);
});

T("version enable without the extension flags: the plain S3 request (no MinIO elements)", async () => {
  fx.recorder.respond(() => ({}));
  fx.recorder.clear();
  const r = await fx.mc(["version", "enable", "minio/photos"]);
  assert.is(r.code, 0, r.stderr);
  assert.not.match(fx.recorder.requests[0]?.body.toString() ?? "", /Exclude/);
});

T("rm --purge --force: one DELETE with x-minio-force-delete signed, no HEAD first, as minio-go's ForceDelete; flag rules", async () => {
  const r = await differential(fx, { op: "rm-purge", args: { bucket: "photos", key: "old logs/2024" }, mc: ["rm", "--purge", "--force", "minio/photos/old logs/2024"], responder: () => ({ status: 204 }) });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["DELETE", "/photos/old%20logs/2024", []]]);
  assert.ok(r.requests[0]?.signedHeaders.includes("x-minio-force-delete"));
  assert.is(r.ours.stdout, "Removed `minio/photos/old logs/2024`.\n");
  fx.recorder.clear();
  for (const [args, says] of [
    [["--purge", "minio/photos/x"], "You cannot specify --purge without --force."],
    [["--purge", "--force", "-r", "minio/photos/x"], "You cannot specify --purge with --recursive."],
    [["--purge", "--force", "--versions", "minio/photos/x"], "You cannot specify --purge flag with any flag(s) other than --force."],
  ] as const) {
    const bad = await fx.mc(["rm", ...args]);
    assert.is(bad.code, 1);
    assert.is(bad.stderr, `mc: <ERROR> ${says}\n`);
  }
  assert.is(fx.recorder.requests.length, 0);
});

const noLifecycle = { status: 404, headers: { "content-type": "application/xml" }, body: "<Error><Code>NoSuchLifecycleConfiguration</Code><Message>The lifecycle configuration does not exist</Message><BucketName>photos</BucketName></Error>" };

T("ilm rule add --expire-days 30 --expire-all-object-versions: MinIO's ExpiredObjectAllVersions after Days in Expiration (newer minio-go's order)", async () => {
  fx.recorder.respond((req) => (req.method === "GET" ? noLifecycle : {}));
  fx.recorder.clear();
  const r = await fx.mc(["ilm", "rule", "add", "minio/photos", "--id", "all-versions", "--expire-days", "30", "--expire-all-object-versions"]);
  assert.is(r.code, 0, r.stderr);
  const put = fx.recorder.requests.find((q) => q.method === "PUT");
  assert.match(put?.body.toString() ?? "", /<Rule><ID>all-versions<\/ID>.*<Expiration><Days>30<\/Days><ExpiredObjectAllVersions>true<\/ExpiredObjectAllVersions><\/Expiration>/);
  fx.recorder.clear();
  const bad = await fx.mc(["ilm", "rule", "add", "minio/photos", "--expire-all-object-versions"]);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /^mc: <ERROR> .*--expire-all-object-versions needs --expire-days/);
  assert.not.ok(fx.recorder.requests.some((q) => q.method === "PUT"));
});

T.run();
