// mc batch generate|start|list|describe|status|cancel against a recording
// endpoint, compared request by request with madmin-go doing the same
// (issue 24); canned answers from the library's types printed in real mc's shapes.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer } from "./go-driver.js";
import { differential, startAdminFixture } from "./fixture.js";
import type { Answer, Recorded } from "./recorder.js";

const fx = await startAdminFixture();
const started = await cannedAnswer("batch-start");
const listed = await cannedAnswer("batch-list");
const metrics = (JSON.parse((await cannedAnswer("batch-metrics")).toString()) as unknown[]).map((m) => `${JSON.stringify(m)}\n`).join("");
const work = await mkdtemp(join(tmpdir(), "mc-batch-"));
const json = { "content-type": "application/json" };
const jobYaml = "replicate:\n  apiVersion: v1\n  source:\n    type: minio\n    bucket: photos\n  target:\n    type: minio\n    bucket: backup\n    endpoint: \"https://127.0.0.1:9100\"\n";

const minio = (req: Recorded): Answer => {
  switch (req.path) {
    case "/minio/admin/v3/start-job":
      return { headers: json, body: started };
    case "/minio/admin/v3/list-jobs":
      return { headers: json, body: listed };
    case "/minio/admin/v3/describe-job":
      return { headers: { "content-type": "application/yaml" }, body: jobYaml };
    case "/minio/admin/v3/metrics":
      return { headers: json, body: metrics };
    case "/minio/admin/v3/cancel-job":
      return { status: 204 };
    default:
      return { status: 400, body: "unexpected request" };
  }
};

const T = suite("mc batch (differential against madmin-go)");
T.after(async () => {
  await fx.stop();
  await rm(work, { recursive: true, force: true });
});

T("batch generate replicate: the library's job template, byte for byte; nothing sent; an unknown type refused", async () => {
  fx.recorder.clear();
  const ref = await fx.driver("batch-generate", { jobType: "replicate" });
  const ours = await fx.mc(["batch", "generate", "minio", "replicate"]);
  assert.is(ours.code, 0, ours.stderr);
  assert.is(ours.stdout, ref.stdout.toString());
  assert.is(fx.recorder.requests.length, 0);
  const bad = await fx.mc(["batch", "generate", "minio", "shuffle"]);
  assert.is(bad.code, 1);
  assert.is(bad.stderr, "mc: <ERROR> Unable to generate a job template for the specified job type. unsupported batch type requested: shuffle.\n");
});

T("batch start: POST /start-job with the YAML as written (plain); real mc's text and JSON", async () => {
  const file = join(work, "job é.yaml");
  await writeFile(file, jobYaml);
  const r = await differential(fx, { op: "batch-start", args: { job: jobYaml }, mc: ["batch", "start", "minio", file], responder: minio });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.body]), [["POST", "/minio/admin/v3/start-job", jobYaml]]);
  assert.is(r.ours.stdout, "Successfully started 'replicate' job `KwSysDpxcBU9FNhGkn2dCf` on '2024-01-02 03:04:05 +0000 UTC'\n");
  const j = await fx.mc(["batch", "start", "minio", file, "--json"]);
  assert.equal(jsonLines(j.stdout), [{ status: "success", result: JSON.parse(started.toString()) as unknown }]);
});

T("batch start with a damaged or missing job file, or bad YAML the server refuses: one line, exit 1", async () => {
  const damaged = join(work, "damaged.yaml");
  await writeFile(damaged, Buffer.concat([Buffer.from("replicate:\n  apiVersion: v1\n"), Buffer.from([0xff, 0xfe, 0x00, 0x41])]));
  fx.recorder.respond(minio);
  fx.recorder.clear();
  const d = await fx.mc(["batch", "start", "minio", damaged]);
  assert.is(d.stderr, `mc: <ERROR> Unable to read ${damaged}. not a YAML text file.\n`);
  const missing = await fx.mc(["batch", "start", "minio", join(work, "nosuch.yaml")]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /^mc: <ERROR> Unable to read .*nosuch\.yaml\. No such file or directory\.\n$/);
  assert.is(fx.recorder.requests.length, 0);
  const bad = join(work, "bad.yaml");
  await writeFile(bad, "replicate: [unclosed\n");
  fx.recorder.respond(() => ({ status: 400, headers: json, body: JSON.stringify({ Code: "XMinioAdminInvalidArgument", Message: "yaml: line 1: did not find expected ',' or ']'", RequestId: "3" }) }));
  const s = await fx.mc(["batch", "start", "minio", bad]);
  assert.is(s.code, 1);
  assert.is(s.stderr, "mc: <ERROR> Unable to start job. yaml: line 1: did not find expected ',' or ']'.\n");
});

T("batch list --type replicate: GET /list-jobs?jobType=; tablewriter's table with humanized start times, and JSON", async () => {
  const r = await differential(fx, { op: "batch-list", args: { jobType: "replicate" }, mc: ["batch", "list", "minio", "--type", "replicate"], responder: minio });
  assert.equal(r.requests[0]?.query, [["jobType", "replicate"]]);
  assert.is(r.ours.stdout, "ID                    \tTYPE     \tUSER      \tSTARTED    \t\nKwSysDpxcBU9FNhGkn2dCf\treplicate\tminioadmin\t3 hours ago\t\na1                    \treplicate\t          \t2 days ago \t\n\n");
  const j = await fx.mc(["batch", "ls", "minio", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ status: "success", ...(JSON.parse(listed.toString()) as Record<string, unknown>) }]);
  assert.is(fx.recorder.requests.at(-1)?.query, "jobType=");
});

T("batch describe: GET /describe-job?jobId=; the YAML printed as is", async () => {
  const r = await differential(fx, { op: "batch-describe", args: { jobId: "KwSysDpxcBU9FNhGkn2dCf" }, mc: ["batch", "describe", "minio", "KwSysDpxcBU9FNhGkn2dCf"], responder: minio });
  assert.equal(r.requests[0]?.query, [["jobId", "KwSysDpxcBU9FNhGkn2dCf"]]);
  assert.is(r.ours.stdout, `${jobYaml}\n`);
});

T("batch status: describe-job, then the metrics stream followed until the job completes; the final view, or JSON per update", async () => {
  const r = await differential(fx, { op: "batch-status", args: { jobId: "KwSysDpxcBU9FNhGkn2dCf" }, mc: ["batch", "status", "minio", "KwSysDpxcBU9FNhGkn2dCf"], responder: minio });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), ["GET /minio/admin/v3/describe-job", "GET /minio/admin/v3/metrics"]);
  assert.equal(r.requests[1]?.query, [["by-jobID", "KwSysDpxcBU9FNhGkn2dCf"], ["disks", ""], ["hosts", ""], ["interval", "1s"], ["n", "0"], ["types", "8"]]);
  assert.is(r.ours.stdout, "JobType:  replicate\nObjects:  30\nFailedObjects:  1\nThroughput:  102 KiB/s\nIOPs:  1.00 objs/s\nTransferred:  3.0 MiB\nElapsed:  30s\nCurrObjName:  img-2.jpg\n");
  const j = await fx.mc(["batch", "status", "minio", "KwSysDpxcBU9FNhGkn2dCf", "--json"]);
  const lines = jsonLines(j.stdout) as { status: string; metric: { complete: boolean; replicate: { objects: number } } }[];
  assert.equal(lines.map((l) => [l.status, l.metric.replicate.objects, l.metric.complete]), [["success", 10, false], ["success", 20, false], ["success", 30, true]]);
  assert.equal(lines[2]?.metric, JSON.parse(r.reference.stdout.toString()) as unknown);
});

T("batch status of a job that ended: looked up in the job history; a damaged stream is one line, exit 1", async () => {
  const last = { jobID: "old", jobType: "replicate", startTime: "2024-01-02T03:04:05Z", lastUpdate: "2024-01-02T03:05:05Z", retryAttempts: 0, complete: true, failed: false, replicate: { lastBucket: "b", lastObject: "o", objects: 60, objectsFailed: 0, bytesTransferred: 6 << 20, bytesFailed: 0 } };
  fx.recorder.respond((req) =>
    req.path.endsWith("/describe-job") ? { status: 404, headers: json, body: JSON.stringify({ Code: "XMinioAdminNoSuchJob", Message: "The specified job does not exist" }) } : req.path.endsWith("/status-job") ? { headers: json, body: JSON.stringify({ LastMetric: last }) } : { status: 400 },
  );
  const r = await fx.mc(["batch", "status", "minio", "old"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "Unable to find an active job, attempting to list from previously run jobs..\nJobType:  replicate\nObjects:  60\nFailedObjects:  0\nThroughput:  102 KiB/s\nIOPs:  1.00 objs/s\nTransferred:  6.0 MiB\nElapsed:  1m0s\nCurrObjName:  o\n");
  fx.recorder.respond((req) => (req.path.endsWith("/metrics") ? { headers: json, body: `${metrics.split("\n")[0] ?? ""}\n{"aggregated": {"batchJobs` } : minio(req)));
  const d = await fx.mc(["batch", "status", "minio", "KwSysDpxcBU9FNhGkn2dCf"]);
  assert.is(d.code, 1);
  assert.match(d.stderr, /^mc: <ERROR> Unable to lookup job status\. the metrics stream is damaged: [^\n]+\n$/);
});

T("batch cancel: DELETE /cancel-job?id= as madmin v3 sends it (204); real mc's text and JSON", async () => {
  const r = await differential(fx, { op: "batch-cancel", args: { jobId: "KwSysDpxcBU9FNhGkn2dCf" }, mc: ["batch", "cancel", "minio", "KwSysDpxcBU9FNhGkn2dCf"], responder: minio });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["DELETE", "/minio/admin/v3/cancel-job", [["id", "KwSysDpxcBU9FNhGkn2dCf"]]]]);
  assert.is(r.ours.stdout, "Successfully canceled batch job `KwSysDpxcBU9FNhGkn2dCf`\n");
  const j = await fx.mc(["batch", "cancel", "minio", "x", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ status: "success", "job-id": "x" }]);
});

T("wrong arguments: usage errors, nothing sent", async () => {
  fx.recorder.clear();
  for (const args of [["batch", "start", "minio"], ["batch", "status", "minio"], ["batch", "cancel", "minio", "a", "b"], ["batch", "generate", "minio"]]) {
    const r = await fx.mc(args);
    assert.is(r.code, 1, args.join(" "));
  }
  assert.is(fx.recorder.requests.length, 0);
});

T.run();
