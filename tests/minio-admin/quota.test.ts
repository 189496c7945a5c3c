// mc quota set|info|clear against a recording endpoint, compared request by
// request with MinIO's own admin library (madmin-go) doing the same (issue 24).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer } from "./go-driver.js";
import { differential, startAdminFixture } from "./fixture.js";

const fx = await startAdminFixture();
const quota = await cannedAnswer("quota"); // {"quota":1073741824,"quotatype":"hard"} from madmin.BucketQuota
const answers = (req: { method: string; path: string }) =>
  req.method === "GET" && req.path.endsWith("/get-bucket-quota") ? { headers: { "content-type": "application/json" }, body: quota } : {};

const Quota = suite("mc quota (differential against madmin-go)");
Quota.after(() => fx.stop());

Quota("quota set: the same GET then PUT set-bucket-quota (query, signed headers, JSON body) as madmin; real mc's text", async () => {
  const r = await differential(fx, { op: "quota-set", args: { bucket: "photos", size: 2 * 1024 ** 3 }, mc: ["quota", "set", "minio/photos", "--size", "2GiB"], responder: answers });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), ["GET /minio/admin/v3/get-bucket-quota", "PUT /minio/admin/v3/set-bucket-quota"]);
  assert.equal(r.requests[1]?.body, { quota: 2147483648, quotatype: "hard" });
  assert.equal(r.requests[1]?.signedHeaders, ["host", "x-amz-content-sha256", "x-amz-date"]);
  assert.is(r.ours.stdout, "Successfully set quota of 2.0 GiB on `photos`\n");
});

Quota("quota set: a bucket name with characters the query must escape is encoded as madmin encodes it", async () => {
  const r = await differential(fx, { op: "quota-set", args: { bucket: "a%2B+b#c é", size: 1000 }, mc: ["quota", "set", "minio/a%2B+b#c é", "--size", "1k"], responder: answers });
  assert.equal(r.requests[1]?.query, [["bucket", "a%2B+b#c é"]]);
});

Quota("quota set --json: real mc's record", async () => {
  fx.recorder.respond(answers);
  const r = await fx.mc(["quota", "set", "minio/photos", "--size", "1.5GB", "--json"]);
  assert.is(r.code, 0, r.stderr);
  assert.equal(jsonLines(r.stdout), [{ status: "success", bucket: "photos", quota: 1500000000, type: "hard" }]);
});

Quota("quota info: the same GET; the canned madmin answer printed in real mc's text and JSON", async () => {
  const r = await differential(fx, { op: "quota-info", args: { bucket: "photos" }, mc: ["quota", "info", "minio/photos"], responder: answers });
  assert.equal(JSON.parse(r.reference.stdout.toString()), { quota: 1073741824, quotatype: "hard" });
  assert.is(r.ours.stdout, "Bucket `photos` has hard quota of 1.0 GiB\n");
  const j = await fx.mc(["quota", "info", "minio/photos", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ status: "success", bucket: "photos", quota: 1073741824, type: "hard" }]);
});

Quota("quota clear: the same PUT with an empty quota", async () => {
  const r = await differential(fx, { op: "quota-clear", args: { bucket: "photos" }, mc: ["quota", "clear", "minio/photos"], responder: answers });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.body]), [["PUT", "/minio/admin/v3/set-bucket-quota", { quota: 0 }]]);
  assert.is(r.ours.stdout, "Successfully cleared bucket quota configured on `photos`\n");
  const j = await fx.mc(["quota", "clear", "minio/photos", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ status: "success", bucket: "photos" }]);
});

const noQuota = { status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ Code: "XMinioAdminNoSuchQuotaConfiguration", Message: "The quota configuration does not exist", Resource: "/minio/admin/v3/get-bucket-quota", RequestId: "17A1", HostId: "dd9025" }) };

Quota("quota info of a bucket without quota: MinIO's JSON error in one line, its code in .error.cause.error.Code, exit 1", async () => {
  fx.recorder.respond(() => noQuota);
  const text = await fx.mc(["quota", "info", "minio/photos"]);
  assert.is(text.code, 1);
  assert.is(text.stderr, "mc: <ERROR> Unable to get bucket quota. The quota configuration does not exist.\n");
  const json = await fx.mc(["quota", "info", "minio/photos", "--json"]);
  const [e] = jsonLines(json.stdout) as { error: { message: string; cause: { message: string; error: Record<string, string> } } }[];
  assert.is(e?.error.message, "Unable to get bucket quota.");
  assert.is(e?.error.cause.error["Code"], "XMinioAdminNoSuchQuotaConfiguration");
  assert.is(e?.error.cause.error["RequestID"], "17A1");
});

Quota("quota set on a bucket without quota starts from an empty one", async () => {
  fx.recorder.respond((req) => (req.method === "GET" ? noQuota : {}));
  fx.recorder.clear();
  const r = await fx.mc(["quota", "set", "minio/photos", "--size", "10MiB"]);
  assert.is(r.code, 0, r.stderr);
  assert.equal(JSON.parse(fx.recorder.requests[1]?.body.toString() ?? ""), { quota: 10485760, quotatype: "hard" });
});

Quota("quota set without --size, with a bad size or without a bucket: a usage error, exit 1, nothing sent", async () => {
  fx.recorder.clear();
  for (const args of [["quota", "set", "minio/photos"], ["quota", "set", "minio/photos", "--size", "lots"], ["quota", "set", "minio", "--size", "1G"], ["quota", "info"]]) {
    const r = await fx.mc(args);
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr, /^mc: <ERROR> /, args.join(" "));
  }
  const unknown = await fx.mc(["quota", "info", "nosuch/photos"]);
  assert.is(unknown.stderr, "mc: <ERROR> Unable to initialize admin connection. No valid configuration found for 'nosuch' host alias.\n");
  assert.is(fx.recorder.requests.length, 0);
});

Quota("a server answering S3 XML instead (no admin API): one line naming the capability and its code, exit 1", async () => {
  fx.recorder.respond(() => ({ status: 404, headers: { "content-type": "application/xml" }, body: "<?xml version=\"1.0\"?><Error><Code>NoSuchBucket</Code><BucketName>minio</BucketName><RequestId>tx1</RequestId></Error>" }));
  for (const args of [["quota", "info", "minio/photos"], ["quota", "set", "minio/photos", "--size", "1G"], ["quota", "clear", "minio/photos"]]) {
    const r = await fx.mc(args);
    assert.is(r.code, 1);
    assert.is(r.stderr, "mc: <ERROR> Bucket quota needs MinIO's admin API, which this server does not have. Server error code: NoSuchBucket.\n");
  }
});

Quota.run();
