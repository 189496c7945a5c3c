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

T.run();
