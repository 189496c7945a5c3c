// mc replicate, ilm tier and batch against Ceph RGW, a server without MinIO's admin
// API and replication extensions (issue 24): each command that needs them fails in
// one line naming what is missing and the server's error code, exit 1; what
// RGW has of plain S3 replication (no rules, DELETE ?replication) answers as
// upstream mc would print it.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { jsonLines, startMcFixture } from "../mc/mc-runner.js";

const fx = await startMcFixture();
const arn = "arn:minio:replication::c5be6b16:backup";
const rule = { ID: "a", Status: "Enabled", Priority: 1, DeleteMarkerReplication: { Status: "Disabled" }, DeleteReplication: { Status: "Disabled" }, Destination: { Bucket: arn }, Filter: {}, SourceSelectionCriteria: { ReplicaModifications: { Status: "Enabled" } }, ExistingObjectReplication: { Status: "Disabled" } };

const T = suite("mc replicate, ilm tier and batch against Ceph RGW");
T.before(async () => {
  assert.is((await fx.mc(["mb", "rgw/photos"])).code, 0);
  await writeFile(join(fx.work, "job.yaml"), "replicate:\n  apiVersion: v1\n");
});
T.after(() => fx.stop());

const admin = "Bucket replication needs MinIO's admin API, which this server does not have\\. Server error code: (NoSuchBucket|AccessDenied|NoSuchKey)";
const s3ext = "Bucket replication needs MinIO's S3 replication API, which this server does not have\\. Server error code: (HTTP 200|MethodNotAllowed|NotImplemented)";
const tier = "Remote tiering needs MinIO's admin API, which this server does not have\\. Server error code: (NoSuchBucket|AccessDenied|NoSuchKey|MethodNotAllowed|NotImplemented)";
const batch = tier.replace("Remote tiering", "Running batch jobs");
const cases: readonly [string, readonly string[], string, string?][] = [
  ["replicate add", ["replicate", "add", "rgw/photos", "--remote-bucket", "http://K:S@127.0.0.1:9/backup", "--priority", "1"], admin],
  ["replicate update", ["replicate", "update", "rgw/photos", "--id", "a", "--priority", "2"], admin],
  ["replicate resync start", ["replicate", "resync", "start", "rgw/photos", "--remote-bucket", arn], s3ext],
  ["replicate resync status", ["replicate", "resync", "status", "rgw/photos"], s3ext],
  ["replicate status", ["replicate", "status", "rgw/photos"], s3ext],
  ["replicate import", ["replicate", "import", "rgw/photos"], s3ext, JSON.stringify({ Rules: [rule], Role: "" })],
  ["ilm tier add minio", ["ilm", "tier", "add", "minio", "rgw", "warm", "--endpoint", "http://127.0.0.1:9", "--access-key", "a", "--secret-key", "b", "--bucket", "c"], tier],
  ["ilm tier list", ["ilm", "tier", "list", "rgw"], tier],
  ["ilm tier info", ["ilm", "tier", "info", "rgw"], tier],
  ["ilm tier update", ["ilm", "tier", "update", "rgw", "WARM", "--access-key", "a", "--secret-key", "b"], tier],
  ["ilm tier check", ["ilm", "tier", "check", "rgw", "WARM"], tier],
  ["ilm tier remove", ["ilm", "tier", "remove", "rgw", "WARM"], tier],
  ["batch start", ["batch", "start", "rgw", join(fx.work, "job.yaml")], batch],
  ["batch list", ["batch", "list", "rgw"], batch],
  ["batch describe", ["batch", "describe", "rgw", "KwSysDpxcBU9FNhGkn2dCf"], batch],
  ["batch status", ["batch", "status", "rgw", "KwSysDpxcBU9FNhGkn2dCf"], batch],
  ["batch cancel", ["batch", "cancel", "rgw", "KwSysDpxcBU9FNhGkn2dCf"], batch],
  ["replicate list (no rules on RGW: upstream's own failure)", ["replicate", "list", "rgw/photos"], "Unable to list replication configuration\\. replication configuration not set"],
];

for (const [name, args, says, input] of cases) {
  T(`${name}: one line, exit 1`, async () => {
    const r = await fx.mc(args, input === undefined ? {} : { input });
    assert.is(r.code, 1, r.stdout);
    assert.is(r.stdout, "");
    assert.match(r.stderr, new RegExp(`^mc: <ERROR> ${says}\\.\\n$`), r.stderr);
    const j = await fx.mc([...args, "--json"], input === undefined ? {} : { input });
    assert.is(j.code, 1);
    assert.is(jsonLines(j.stdout)[0]?.["status"], "error");
  });
}

T("replicate export and remove --all --force: RGW's plain S3 replication answers (no rules; DELETE ?replication)", async () => {
  const e = await fx.mc(["replicate", "export", "rgw/photos"]);
  assert.is(e.stdout, "No replication configuration found for rgw/photos.\n");
  const r = await fx.mc(["replicate", "remove", "rgw/photos", "--all", "--force"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "Replication configuration removed from rgw/photos successfully.\n");
});

T.run();
