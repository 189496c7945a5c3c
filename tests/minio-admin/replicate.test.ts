// mc replicate add|update|list|remove|export|import|resync start|resync status
// against a recording endpoint, compared request by request with MinIO's own
// libraries (madmin-go for the remote targets, minio-go for `?replication`
// and MinIO's replication extensions) doing the same (issue 24).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer } from "./go-driver.js";
import { differential, startAdminFixture, type Normalized } from "./fixture.js";
import type { Answer, Recorded } from "./recorder.js";

const fx = await startAdminFixture();
const targets = await cannedAnswer("bucket-targets");
const configXml = JSON.parse((await cannedAnswer("replication-config")).toString()) as string;
const resync = await cannedAnswer("resync-info");
const arn = "arn:minio:replication::c5be6b16-769d-432a-9ef1-4567081f3566:backup";
const json = { "content-type": "application/json" };
const noConfig = { status: 404, headers: { "content-type": "application/xml" }, body: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>ReplicationConfigurationNotFoundError</Code><Message>The replication configuration was not found</Message><BucketName>photos</BucketName><Resource>/photos</Resource><RequestId>17B</RequestId></Error>" };

/** minio-go's MetricsV2 (newer than Debian's v7.0.46, so written here in its JSON form): one live target, one removed. */
const metricsV2 = {
  uptime: 7200,
  currStats: {
    Stats: {
      [arn]: { replicationCount: 1234, completedReplicationSize: 5 << 20, limitInBits: 2e9, currentBandwidth: 1500, failed: { lastMinute: { count: 1, bytes: 10 }, lastHour: { count: 2, bytes: 20 }, totals: { count: 3, bytes: 30 } } },
      "arn:minio:replication::gone:old": { replicationCount: 5, completedReplicationSize: 100 },
    },
    completedReplicationSize: (5 << 20) + 100,
    replicationCount: 1239,
    replicaSize: 2048,
    replicaCount: 2,
    failed: { lastMinute: { count: 1 }, lastHour: { count: 2 }, totals: { count: 3 } },
    queued: { curr: { count: 4, bytes: 4096 }, avg: { count: 2, bytes: 2048 }, peak: { count: 9, bytes: 9216 } },
  },
  queueStats: { nodes: [{ nodeName: "127.0.0.1:9000", uptime: 7200, activeWorkers: { curr: 16, avg: 15.5, max: 20 }, transferSummary: { Total: { avgRate: 1000, peakRate: 5000, currRate: 2000 } }, tgtTransferStats: { [arn]: { Total: { avgRate: 1000, peakRate: 5000, currRate: 2000 } } } }] },
  downtimeInfo: {},
};

/** A MinIO deployment as far as replication goes: `withConfig` = the bucket has the canned rules. */
const minio = (withConfig: boolean) => (req: Recorded): Answer => {
  if (req.path === "/minio/admin/v3/list-remote-targets") return { headers: json, body: targets };
  if (req.path === "/minio/admin/v3/set-remote-target") return { headers: json, body: JSON.stringify(arn) };
  if (req.path === "/minio/admin/v3/remove-remote-target") return { status: 204 };
  if (req.path === "/photos/" && req.query === "replication=") {
    if (req.method === "GET") return withConfig ? { headers: { "content-type": "application/xml" }, body: configXml } : noConfig;
    return {};
  }
  if (req.path === "/photos/" && req.query === "replication-metrics=2") return { headers: json, body: JSON.stringify(metricsV2) };
  if (req.path === "/photos/" && (req.query.startsWith("replication-reset") || req.query.includes("&replication-reset"))) return { headers: json, body: resync };
  return { status: 400, body: "unexpected request" };
};

const encrypted = (r: Recorded): boolean => r.path === "/minio/admin/v3/set-remote-target";
/** madmin v2.0.7 writes the target's region under the key `omitempty` (a struct-tag slip fixed in v3, which we follow). */
const v3Target = (n: Normalized): Normalized => {
  if (typeof n.body !== "object" || n.body === null || !("omitempty" in n.body)) return n;
  const { omitempty, ...rest } = n.body as Record<string, unknown>;
  return { ...n, body: omitempty === "" ? rest : { ...rest, region: omitempty } };
};

const T = suite("mc replicate (differential against madmin-go and minio-go)");
T.after(() => fx.stop());

const remoteTarget = { endpoint: "127.0.0.1:9100", credentials: { accessKey: "REMOTEKEY", secretKey: "remote+secret/9" }, targetbucket: "backup", secure: false, path: "auto", api: "s3v4", type: "replication", replicationSync: false, healthCheckDuration: 60e9, disableProxy: false };

T("replicate add: set-remote-target (encrypted), GET ?replication, PUT ?replication with the new rule, as madmin + minio-go", async () => {
  const r = await differential(fx, {
    op: "replicate-add",
    args: { bucket: "photos", target: remoteTarget, opts: { ID: "rule1", Priority: "1", RuleStatus: "enable", ReplicateDeleteMarkers: "enable", ReplicateDeletes: "enable", ReplicaSync: "enable", ExistingObjectReplicate: "enable" } },
    mc: ["replicate", "add", "minio/photos", "--remote-bucket", "http://REMOTEKEY:remote+secret/9@127.0.0.1:9100/backup", "--priority", "1", "--id", "rule1"],
    responder: minio(false),
    encrypted,
    mask: v3Target,
  });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path} ${q.query.map((p) => p.join("=")).join("&")}`), [
    "PUT /minio/admin/v3/set-remote-target bucket=photos",
    "GET /photos/ replication=",
    "PUT /photos/ replication=",
  ]);
  assert.equal(r.requests[2]?.signedHeaders, ["content-md5", "host", "x-amz-content-sha256", "x-amz-date"]);
  assert.match(String(r.requests[2]?.body), /^<ReplicationConfiguration><Rule><ID>rule1<\/ID><Status>Enabled<\/Status><Priority>1<\/Priority>/);
  assert.is(r.ours.stdout, "Replication configuration rule with ID `rule1` applied to minio/photos.\n");
});

T("replicate add onto existing rules, with tags, prefix-less filter, storage class, bandwidth, sync, region and --disable", async () => {
  await differential(fx, {
    op: "replicate-add",
    args: {
      bucket: "photos",
      target: { ...remoteTarget, secure: true, omitempty: "eu-west-1", bandwidthlimit: 2e9, replicationSync: true, disableProxy: true, healthCheckDuration: 30e9, path: "on" },
      opts: { ID: "rule-3", Priority: "3", RuleStatus: "disable", TagString: "a=1&b=x y", StorageClass: "REDUCED_REDUNDANCY", ReplicateDeleteMarkers: "disable", ReplicateDeletes: "enable", ReplicaSync: "enable", ExistingObjectReplicate: "disable" },
    },
    mc: ["replicate", "add", "minio/photos", "--remote-bucket", "https://REMOTEKEY:remote+secret/9@127.0.0.1:9100/backup", "--priority", "3", "--id", "rule-3", "--tags", "a=1&b=x y", "--storage-class", "REDUCED_REDUNDANCY", "--replicate", "delete", "--bandwidth", "2G", "--sync", "--disable-proxy", "--region", "eu-west-1", "--healthcheck-seconds", "30", "--path", "on", "--disable"],
    responder: minio(true),
    encrypted,
    mask: v3Target,
  });
});

T("replicate add --json: real mc's record; a priority already taken is refused before anything is written", async () => {
  fx.recorder.respond(minio(false));
  const j = await fx.mc(["replicate", "add", "minio/photos", "--remote-bucket", "http://K:S@127.0.0.1:9100/backup", "--priority", "1", "--json"]);
  assert.is(j.code, 0, j.stderr);
  assert.equal(jsonLines(j.stdout), [{ op: "add", status: "success", url: "minio/photos", id: "" }]);
  const put = fx.recorder.requests.find((q) => q.method === "PUT" && q.path === "/photos/");
  assert.match(put?.body.toString() ?? "", /<ID>[0-9a-v]{20}<\/ID>/); // an xid, as minio-go names a rule
  fx.recorder.respond(minio(true));
  fx.recorder.clear();
  const dup = await fx.mc(["replicate", "add", "minio/photos", "--remote-bucket", "http://K:S@127.0.0.1:9100/backup", "--priority", "1"]);
  assert.is(dup.code, 1);
  assert.is(dup.stderr, "mc: <ERROR> unable to add replication rule. priority must be unique. Replication configuration already has a rule with this priority.\n");
  assert.not.ok(fx.recorder.requests.some((q) => q.method === "PUT" && q.path === "/photos/"));
});

T("replicate list: GET ?replication then list-remote-targets; real mc's text and JSON", async () => {
  const r = await differential(fx, { op: "replicate-list", args: { bucket: "photos" }, mc: ["replicate", "list", "minio/photos"], responder: minio(true) });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), ["GET /photos/", "GET /minio/admin/v3/list-remote-targets"]);
  assert.equal(r.requests[1]?.query, [["bucket", "photos"], ["type", ""]]);
  assert.is(
    r.ours.stdout,
    "Rules:\nRemote Bucket: 127.0.0.1:9100/backup\n  Rule ID: cfvn4k4p8k5s73a2e0hg\n  Priority: 1\n  Prefix: docs/\n  Tags: k1=v1&k2=v & 2\n  StorageClass: REDUCED_REDUNDANCY\n\n\n" +
      "Remote Bucket: arn:minio:replication::0d9a2c6e-0b4f-4c4e-9d3e-111111111111:archive/archive\n  Rule ID: second\n  Priority: 2\n  Tags: team=ops\n\n\n",
  );
  const reference = JSON.parse(r.reference.stdout.toString()) as { config: { Rules: unknown[] } };
  const j = await fx.mc(["replicate", "list", "minio/photos", "--json", "--status", "disabled"]);
  assert.equal(jsonLines(j.stdout), [{ op: "", status: "success", url: "", rule: reference.config.Rules[1] }]);
});

T("replicate list of a bucket without rules: upstream's fatal line, exit 1", async () => {
  fx.recorder.respond(minio(false));
  const r = await fx.mc(["replicate", "list", "minio/photos"]);
  assert.is(r.code, 1);
  assert.is(r.stderr, "mc: <ERROR> Unable to list replication configuration. replication configuration not set.\n");
});

T("replicate export: GET ?replication; the configuration printed as minio-go's JSON (text and --json)", async () => {
  const r = await differential(fx, { op: "replicate-export", args: { bucket: "photos" }, mc: ["replicate", "export", "minio/photos"], responder: minio(true) });
  const reference = JSON.parse(r.reference.stdout.toString()) as unknown;
  assert.equal(JSON.parse(r.ours.stdout) as unknown, reference);
  assert.is(r.ours.stdout, `${JSON.stringify(reference, null, 1)}\n`);
  const j = await fx.mc(["replicate", "export", "minio/photos", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ op: "export", status: "success", url: "minio/photos", config: reference }]);
  fx.recorder.respond(minio(false));
  assert.is((await fx.mc(["replicate", "export", "minio/photos"])).stdout, "No replication configuration found for minio/photos.\n");
});

T("replicate import: what export printed goes back as the same ?replication XML minio-go writes", async () => {
  fx.recorder.respond(minio(true));
  const exported = (await fx.mc(["replicate", "export", "minio/photos"])).stdout;
  fx.recorder.clear();
  const r = await differential(fx, { op: "replicate-import", args: { bucket: "photos", changes: JSON.parse(exported) as unknown }, mc: ["replicate", "import", "minio/photos"], input: exported, responder: minio(true) });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), ["PUT /photos/"]);
  assert.is(r.requests[0]?.body, configXml);
  assert.is(r.ours.stdout, "Replication configuration successfully set on `minio/photos`.\n");
});

T("replicate import of damaged JSON: one line, exit 1, nothing sent", async () => {
  for (const bad of ["{\"Rules\": [", "not json", "{\"Rules\": {}}", "{\"Rules\": [{\"Priority\": \"one\"}]}"]) {
    fx.recorder.clear();
    const r = await fx.mc(["replicate", "import", "minio/photos"], { input: bad });
    assert.is(r.code, 1, bad);
    assert.match(r.stderr, /^mc: <ERROR> Unable to read replication configuration\. [^\n]+\n$/, bad);
    assert.is(fx.recorder.requests.length, 0);
  }
});

T("replicate update --priority --tags --replicate: GET ?replication, list-remote-targets, PUT ?replication, as minio-go EditRule", async () => {
  const r = await differential(fx, {
    op: "replicate-update",
    args: { bucket: "photos", opts: { ID: "second", Priority: "5", TagString: "x=1", IsTagSet: true, ReplicateDeletes: "enable", ReplicateDeleteMarkers: "disable", ReplicaSync: "disable", ExistingObjectReplicate: "enable", RuleStatus: "enable" } },
    mc: ["replicate", "update", "minio/photos", "--id", "second", "--priority", "5", "--tags", "x=1", "--replicate", "delete,existing-objects", "--state", "enable"],
    responder: minio(true),
  });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), ["GET /photos/", "GET /minio/admin/v3/list-remote-targets", "PUT /photos/"]);
  assert.is(r.ours.stdout, "Replication configuration rule with ID `second` applied to minio/photos.\n");
});

T("replicate update --remote-bucket --sync --proxy --bandwidth: set-remote-target?update=true with the changes flagged", async () => {
  const r = await differential(fx, {
    op: "replicate-update",
    args: {
      bucket: "photos",
      updateTarget: true,
      changes: { credentials: { accessKey: "NEWKEY", secretKey: "new-secret" }, endpoint: "127.0.0.1:9100", secure: false, replicationSync: true, disableProxy: true, bandwidthlimit: 1e6 },
      ops: [2, 3, 1, 4],
      opts: { ID: "cfvn4k4p8k5s73a2e0hg" },
    },
    mc: ["replicate", "update", "minio/photos", "--id", "cfvn4k4p8k5s73a2e0hg", "--remote-bucket", "http://NEWKEY:new-secret@127.0.0.1:9100/backup", "--sync", "enable", "--proxy", "disable", "--bandwidth", "1M"],
    responder: minio(true),
    encrypted,
    mask: v3Target,
  });
  assert.equal(r.requests[2]?.query, [["bandwidth", "true"], ["bucket", "photos"], ["creds", "true"], ["proxy", "true"], ["sync", "true"], ["update", "true"]]);
});

T("replicate update: wrong flags are usage errors before anything is sent", async () => {
  fx.recorder.respond(minio(true));
  fx.recorder.clear();
  for (const args of [["--id", "x", "--state", "maybe"], ["--id", "x", "--sync", "enable"], ["--id", "x", "--replicate", "everything"], ["--id", "x", "--priority", "high"]]) {
    const r = await fx.mc(["replicate", "update", "minio/photos", ...args]);
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr, /^mc: <ERROR> /);
  }
  assert.is(fx.recorder.requests.length, 0);
});

T("replicate remove --id: GET, PUT ?replication without the rule, then remove-remote-target of its ARN", async () => {
  const r = await differential(fx, { op: "replicate-remove", args: { bucket: "photos", opts: { ID: "second" } }, mc: ["replicate", "remove", "minio/photos", "--id", "second"], responder: minio(true) });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), ["GET /photos/", "PUT /photos/", "DELETE /minio/admin/v3/remove-remote-target"]);
  assert.equal(r.requests[2]?.query, [["arn", "arn:minio:replication::0d9a2c6e-0b4f-4c4e-9d3e-111111111111:archive"], ["bucket", "photos"]]);
  assert.is(r.ours.stdout, "Replication configuration rule with ID `second`removed from minio/photos.\n");
});

T("replicate remove --all --force: DELETE ?replication; --all without --force refused", async () => {
  const r = await differential(fx, { op: "replicate-remove", args: { bucket: "photos", all: true }, mc: ["replicate", "remove", "minio/photos", "--all", "--force"], responder: minio(true) });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), ["GET /photos/", "DELETE /photos/"]);
  const j = await fx.mc(["replicate", "remove", "minio/photos", "--all", "--force", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ op: "remove", status: "success", url: "minio/photos", id: "" }]);
  const bad = await fx.mc(["replicate", "remove", "minio/photos", "--all"]);
  assert.is(bad.code, 1);
  assert.is(bad.stderr, "mc: <ERROR> It is mandatory to specify --all and --force flag together for mc replicate remove.\n");
});

const resetId = (n: Normalized): Normalized => ({ ...n, query: n.query.map(([k, v]) => [k, k === "reset-id" && /^[0-9a-f-]{36}$/.test(v) ? "<uuid>" : v] as const) });

T("replicate resync start --older-than 60d: PUT ?replication-reset with the ARN and a fresh reset id; real mc's text and JSON", async () => {
  const r = await differential(fx, {
    op: "replicate-resync-start",
    args: { bucket: "photos", arn, olderThan: 60 * 86400e9 },
    mc: ["replicate", "resync", "start", "minio/photos", "--remote-bucket", arn, "--older-than", "60d"],
    responder: minio(true),
    mask: resetId,
  });
  assert.equal(r.requests[0]?.query, [["arn", arn], ["older-than", "1440h0m0s"], ["replication-reset", ""], ["reset-id", "<uuid>"]]);
  assert.is(r.ours.stdout, "Replication reset started for minio/photos with ID 5a4c8f7e-1b2d-4e3f-9a0b-c1d2e3f4a5b6\n");
  const j = await fx.mc(["replicate", "resync", "start", "minio/photos", "--remote-bucket", arn, "--json"]);
  assert.equal(jsonLines(j.stdout), [{ op: "start", url: "minio/photos", resyncInfo: JSON.parse(resync.toString()) as unknown, status: "success", targetArn: "" }]);
  for (const args of [[], ["--older-than", "5h"], ["--older-than", "0d"]]) {
    const bad = await fx.mc(["replicate", "resync", "start", "minio/photos", ...(args.length === 0 ? [] : ["--remote-bucket", arn]), ...args]);
    assert.is(bad.code, 1, args.join(" "));
  }
});

T("replicate resync status: GET ?replication-reset-status; upstream's summary table and JSON", async () => {
  const r = await differential(fx, { op: "replicate-resync-status", args: { bucket: "photos", arn }, mc: ["replicate", "resync", "status", "minio/photos", "--remote-bucket", arn], responder: minio(true) });
  assert.equal(r.requests[0]?.query, [["arn", arn], ["replication-reset-status", ""]]);
  const row = (a: string, b: string, c: string): string => `${a.padEnd(21)} | ${b.padEnd(15)} | ${c.padEnd(15)}`;
  assert.is(r.ours.stdout, `Resync status summary:\n${`● ${arn}`.padEnd(120)}\n   Status: Ongoing\n${row("   Replication Status", "Size (Bytes)", "Count")}\n${row("   Replicated", "1.5 KiB", "3")}\n${row("   Failed", "10 B", "1")}\n\n`);
  const j = await fx.mc(["replicate", "resync", "status", "minio/photos", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ op: "status", url: "minio/photos", resyncInfo: JSON.parse(resync.toString()) as unknown, status: "success", targetArn: "" }]);
});

T("replicate status: ?replication-metrics=2, list-remote-targets, ?replication (upstream's order); upstream's rows and JSON", async () => {
  const r = await differential(fx, { op: "replicate-status", args: { bucket: "photos" }, mc: ["replicate", "status", "minio/photos"], responder: minio(true) });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path} ${q.query.map((p) => p.join("=")).join("&")}`), ["GET /photos/ replication-metrics=2", "GET /minio/admin/v3/list-remote-targets bucket=photos&type=", "GET /photos/ replication="]);
  assert.is(
    r.ours.stdout,
    [
      "Replication status since 2 hours ago",
      "127.0.0.1:9100",
      "Replicated:                   1,234 objects (5.0 MiB)",
      "Transfer Rate:                2.0 kB/s (avg: 1.0 kB/s; max: 5.0 kB/s",
      "Latency:                      0s (avg: 0s; max: 0s)",
      "Link:                         ● offline 0s (total downtime: 0s)",
      "Errors:                       1 in last 1 minute; 2 in last 1hr; 3 since uptime",
      "Configured Max Bandwidth (Bps): 2.0 GB/s   Current Bandwidth (Bps): 1.5 kB/s",
      // Two ARNs in the stats (one of a removed target, not shown): upstream's summary follows.
      "",
      "Summary:",
      "Replicated:                   1,234 objects (5.0 MiB)",
      "Queued:                       ● 4 objects, 4.0 KiB (avg: 2 objects, 2.0 KiB ; max: 9 objects, 9.0 KiB)",
      "Workers:                      16 (avg: 15; max: 20)",
      "Received:                     2 objects (2.0 KiB)",
      "Transfer Rate:                2.0 kB/s (avg: 1.0 kB/s; max: 5.0 kB/s)",
      "Errors:                       1 in last 1 minute; 2 in last 1hr; 3 since uptime",
      "",
    ].join("\n"),
  );
  const j = await fx.mc(["replicate", "status", "minio/photos", "--json"]);
  const [msg] = jsonLines(j.stdout);
  assert.equal(Object.keys(msg ?? {}), ["op", "url", "status", "replicationstats", "remoteTargets"]);
  assert.equal(msg?.["replicationstats"], metricsV2);
  fx.recorder.respond(minio(false));
  assert.match((await fx.mc(["replicate", "status", "minio/photos"])).stdout, /^Replication is not configured\.\n$/);
});

const mrf = [
  { nodeName: "127.0.0.1:9000", bucket: "photos", object: "docs/a.txt", versionId: "a6c2b9e8-1111-4c4e-9d3e-000000000001", retryCount: 3 },
  { nodeName: "127.0.0.1:9001", bucket: "photos", object: "docs/b é.txt", versionId: "", retryCount: 1 },
];
const diffInfo = [
  { object: "docs/a.txt", versionId: "v1", rStatus: "FAILED", replTimestamp: "2024-01-02T03:04:05Z", lastModified: "2024-01-02T03:00:00Z", deletemarker: false, targets: { [arn]: { rStatus: "FAILED" } } },
  { object: "docs/gone.txt", versionId: "v2", dStatus: "PENDING", lastModified: "2024-01-02T03:00:00.5Z", deletemarker: true },
];

T("replicate backlog: GET replication/mrf?bucket=&node=all (madmin v3); the failures printed and one JSON record each", async () => {
  const responder = (req: Recorded): Answer => (req.path === "/minio/admin/v3/replication/mrf" ? { headers: json, body: mrf.map((m) => JSON.stringify(m)).join("\n") } : { status: 400 });
  const r = await differential(fx, { op: "replicate-backlog", args: { bucket: "photos", node: "all" }, mc: ["replicate", "backlog", "minio/photos"], responder });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/replication/mrf", [["bucket", "photos"], ["node", "all"]]]]);
  const lines = r.ours.stdout.split("\n");
  assert.equal(lines.slice(0, 3), ["Unreplicated versions summary", "Total Unreplicated: 2", ""]);
  assert.match(lines[3] ?? "", /^ Node {38}VersionID {29}Retry  Object$/);
  assert.match(lines[4] ?? "", /^ 127\.0\.0\.1:9000 +a6c2b9e8-1111-4c4e-9d3e-000000000001  3      photos\/docs\/a\.txt$/);
  const j = await fx.mc(["replicate", "backlog", "minio/photos", "--json"]);
  assert.equal(jsonLines(j.stdout), mrf.map((m) => ({ op: "mrf", status: "success", ...m })));
});

T("replicate backlog --full --arn --verbose on a prefix: POST replication/diff as madmin's BucketReplicationDiff; rows and JSON", async () => {
  const responder = (req: Recorded): Answer => (req.path === "/minio/admin/v3/replication/diff" ? { headers: json, body: diffInfo.map((d) => JSON.stringify(d)).join("\n") } : { status: 400 });
  const r = await differential(fx, { op: "replicate-diff", args: { bucket: "photos", arn, verbose: true, prefix: "docs/" }, mc: ["replicate", "backlog", "minio/photos/docs/", "--full", "--arn", arn, "-v"], responder });
  assert.equal(r.requests[0]?.query, [["arn", arn], ["bucket", "photos"], ["prefix", "docs/"], ["verbose", "true"]]);
  const lines = r.ours.stdout.split("\n");
  assert.is(lines[1], "Total Unreplicated: 2");
  assert.match(lines[4] ?? "", /^ 2024-01-02 03:04:05 UTC +2024-01-02 03:00:00 UTC +FAILED +v1 +PUT +docs\/a\.txt$/);
  // With --arn, a version no target reports has no status (upstream replStatus).
  assert.match(lines[5] ?? "", /^ {25} 2024-01-02 03:00:00 UTC +v2 +DEL +docs\/gone\.txt$/);
  const j = await fx.mc(["replicate", "backlog", "minio/photos/docs/", "--full", "--json"]);
  assert.equal(jsonLines(j.stdout), diffInfo);
});

T("MinIO refusing (admin JSON error): upstream's fatal message, the code in .error.cause.error.Code", async () => {
  fx.recorder.respond((req) => (req.path.startsWith("/minio/admin") ? { status: 400, headers: json, body: JSON.stringify({ Code: "XMinioAdminRemoteTargetNotFoundError", Message: "The remote target does not exist", RequestId: "9" }) } : minio(true)(req)));
  const r = await fx.mc(["replicate", "list", "minio/photos"]);
  assert.is(r.stderr, "mc: <ERROR> Unable to fetch remote target. The remote target does not exist.\n");
  const j = await fx.mc(["replicate", "list", "minio/photos", "--json"]);
  const [e] = jsonLines(j.stdout) as { error: { cause: { error: Record<string, string> } } }[];
  assert.is(e?.error.cause.error["Code"], "XMinioAdminRemoteTargetNotFoundError");
});

T.run();
