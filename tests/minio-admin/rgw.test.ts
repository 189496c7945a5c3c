// The MinIO-only commands against Ceph RGW, a server without MinIO's admin
// and health APIs: each fails in one line naming what is missing and the
// server's error code, exit 1 (issue 24); admin info keeps its S3 fallback.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "../mc/mc-runner.js";

const fx = await startMcFixture();
const code = "(NoSuchBucket|AccessDenied|NoSuchKey)";

const T = suite("MinIO admin commands against Ceph RGW");
T.before(async () => {
  assert.is((await fx.mc(["mb", "rgw/photos"])).code, 0);
});
T.after(() => fx.stop());

const cases: readonly [string, readonly string[], string][] = [
  ["quota set", ["quota", "set", "rgw/photos", "--size", "1GiB"], "Bucket quota needs MinIO's admin API"],
  ["quota info", ["quota", "info", "rgw/photos"], "Bucket quota needs MinIO's admin API"],
  ["quota clear", ["quota", "clear", "rgw/photos"], "Bucket quota needs MinIO's admin API"],
  ["ready", ["ready", "rgw"], "The cluster health check needs MinIO's health API"],
  ["ready --cluster-read", ["ready", "rgw", "--cluster-read"], "The cluster health check needs MinIO's health API"],
  ["ping --distributed", ["ping", "--distributed", "-c", "1", "rgw"], "Pinging each node needs MinIO's admin API"],
  ["ping --node", ["ping", "--node", "127.0.0.1:9000", "-c", "1", "rgw"], "Pinging each node needs MinIO's admin API"],
];

for (const [name, args, says] of cases) {
  T(`${name}: one line naming the missing API and RGW's error code, exit 1`, async () => {
    const r = await fx.mc(args);
    assert.is(r.code, 1, r.stdout);
    assert.is(r.stdout, "");
    assert.match(r.stderr, new RegExp(`^mc: <ERROR> ${says}, which this server does not have\\. Server error code: ${code}\\.\\n$`));
    const j = await fx.mc([...args, "--json"]);
    assert.is(j.code, 1);
    const [e] = jsonLines(j.stdout) as { error: { cause: { error: Record<string, string> } } }[];
    assert.match(e?.error.cause.error["Code"] ?? "", new RegExp(`^${code}$`));
  });
}

T("admin info: no admin API, so the S3 fallback answers", async () => {
  const r = await fx.mc(["admin", "info", "rgw", "--json"]);
  assert.is(r.code, 0, r.stderr);
  const info = jsonLines(r.stdout)[0]?.["info"] as Record<string, unknown>;
  assert.is(info["endpoint"], fx.rgw.endpoint);
  assert.is(info["buckets"], 1);
});

T.run();
