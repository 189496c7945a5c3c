// mc admin replicate add|update|remove|info|status|resync start|cancel|status
// (site replication) against a recording endpoint, compared request by
// request with the reference driver: v2.0.7's own calls for info, remove and
// the resync metrics, madmin-go v3's requests for add, edit, status and
// resync (issue 25).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer } from "./go-driver.js";
import { differential, keys, startAdminFixture } from "./fixture.js";
import type { Answer, Recorded } from "./recorder.js";

const fx = await startAdminFixture();
const serverInfo = await cannedAnswer("server-info");
const self = `http://${keys.access}:${encodeURIComponent(keys.secret)}@${fx.recorder.host}`;
const env = { MC_HOST_minio2: "http://AKSITE2:site2%2Bsecret@127.0.0.2:9100", MC_HOST_self2: self };
const info = {
  enabled: true,
  name: "minio1",
  sites: [
    { endpoint: "http://127.0.0.1:9000", name: "minio1", deploymentID: "dep-1", sync: "enable", defaultbandwidth: { bandwidthLimitPerBucket: 1250000, set: true, updatedAt: "2024-05-06T07:08:09Z" } },
    { endpoint: "https://minio2:9000", name: "minio2", deploymentID: "6faeded5-5cf3-4133-8a37-07c5d500207c", sync: "", defaultbandwidth: { bandwidthLimitPerBucket: 0, set: false, updatedAt: "0001-01-01T00:00:00Z" } },
  ],
  serviceAccountAccessKey: "site-replicator-0",
};
const site = (name: string, id: string): Record<string, unknown> => ({ endpoint: "", name, deploymentID: id });
const status = {
  Enabled: true, MaxBuckets: 2, MaxUsers: 1, MaxGroups: 0, MaxPolicies: 1,
  Sites: { "dep-1": site("minio1", "dep-1"), "dep-2": site("minio2", "dep-2") },
  StatsSummary: {},
  BucketStats: { photos: { "dep-1": { DeploymentID: "dep-1", HasBucket: true }, "dep-2": { DeploymentID: "dep-2", HasBucket: true, TagMismatch: true } } },
  PolicyStats: {}, UserStats: {}, GroupStats: {},
  Metrics: { activeWorkers: { curr: 2, avg: 1.5, max: 4 }, replicaSize: 0, replicaCount: 0, queued: { curr: { count: 0, bytes: 0 }, avg: { count: 0, bytes: 0 }, max: { count: 0, bytes: 0 } }, replMetrics: { "dep-2": { deploymentID: "dep-2", endpoint: "https://minio2:9000", totalDowntime: 0, lastOnline: "0001-01-01T00:00:00Z", isOnline: true, replicatedSize: 1536, replicatedCount: 3, failed: { lastMinute: { count: 0 }, lastHour: { count: 1 }, totals: { count: 2 } } } }, uptime: 3600 },
};
const resync = { aggregated: { siteResync: { collected: "2024-05-06T07:09:09Z", resyncStatus: "Completed", startTime: "2024-05-06T07:08:09Z", lastUpdate: "2024-05-06T07:08:19Z", numBuckets: 2, resyncID: "rs-1", deplID: "6faeded5", completedReplicationSize: 10240, replicationCount: 20, failedReplicationSize: 0, failedReplicationCount: 0, failedBuckets: null, bucket: "photos", object: "z.jpg" } }, final: false };

const answers = (req: Recorded): Answer => {
  const p = req.path.replace("/minio/admin/v3", "");
  if (p === "/site-replication/add") return { body: JSON.stringify({ success: true, status: "Requested sites were configured for replication successfully.", initialSyncErrorMessage: "bucket photos: slow" }) };
  if (p === "/site-replication/info") return { body: JSON.stringify(info) };
  if (p === "/site-replication/edit") return { body: JSON.stringify({ success: true, status: "Requested site was edited successfully." }) };
  if (p === "/site-replication/remove") return { body: JSON.stringify({ status: "Requested site(s) were removed from cluster replication successfully." }) };
  if (p === "/site-replication/status") return { body: JSON.stringify(status) };
  if (p === "/site-replication/resync/op") return { body: JSON.stringify({ op: new URLSearchParams(req.query).get("operation"), id: "rs-1", status: "success", buckets: [{ bucket: "photos", status: "started" }] }) };
  if (p === "/info") return { body: serverInfo };
  if (p === "/metrics") return { body: `${JSON.stringify(resync)}\n` };
  return {};
};
const enc = (req: Recorded): boolean => req.path.endsWith("/site-replication/add") || req.path.endsWith("/site-replication/edit");

const T = suite("mc admin replicate (site replication, differential against the reference driver)");
T.after(() => fx.stop());

T("add: PUT site-replication/add with every alias's endpoint and keys encrypted (madmin v3 query); update: PUT edit with v3's PeerInfo encrypted", async () => {
  const sites = [{ name: "minio", endpoints: `http://${fx.recorder.host}`, accessKey: keys.access, secretKey: keys.secret }, { name: "minio2", endpoints: "http://127.0.0.2:9100", accessKey: "AKSITE2", secretKey: "site2+secret" }];
  const add = await differential(fx, { op: "sr-add", args: { sites, ilmExpiry: true }, mc: ["admin", "replicate", "add", "minio", "minio2", "--replicate-ilm-expiry"], encrypted: enc, responder: answers, env });
  assert.equal(add.requests.map((q) => [q.method, q.path, q.query, q.body]), [["PUT", "/minio/admin/v3/site-replication/add", [["api-version", "1"], ["replicateILMExpiry", "true"]], sites]]);
  assert.is(add.ours.stdout, "Requested sites were configured for replication successfully.\nbucket photos: slow\n");
  const upd = await differential(fx, { op: "sr-edit", args: { peer: { endpoint: "https://minio3:9000", deploymentID: "dep-1", sync: "enable" } }, mc: ["admin", "replicate", "update", "minio", "--deployment-id", "dep-1", "--endpoint", "https://minio3:9000", "--mode", "sync"], encrypted: enc, responder: answers });
  assert.equal(upd.requests.map((q) => [q.method, q.path, q.query, q.body]), [["PUT", "/minio/admin/v3/site-replication/edit", [["api-version", "1"], ["disableILMExpiryReplication", "false"], ["enableILMExpiryReplication", "false"]], { endpoint: "https://minio3:9000", name: "", deploymentID: "dep-1", sync: "enable", defaultbandwidth: { bandwidthLimitPerBucket: 0, set: false, updatedAt: "0001-01-01T00:00:00Z" } }]]);
  assert.is(upd.ours.stdout, "Requested site was edited successfully.\n");
  // --bucket-bandwidth: go-humanize's bytes (2G = 2·10^9) as v3's default bandwidth, set; the ILM expiry switches need no deployment.
  const bw = await differential(fx, { op: "sr-edit", args: { peer: { deploymentID: "dep-1", defaultbandwidth: { bandwidthLimitPerBucket: 2e9, set: true } } }, mc: ["admin", "replicate", "update", "minio", "--deployment-id", "dep-1", "--bucket-bandwidth", "2G"], encrypted: enc, responder: answers });
  assert.equal(bw.requests[0]?.body, { endpoint: "", name: "", deploymentID: "dep-1", sync: "", defaultbandwidth: { bandwidthLimitPerBucket: 2e9, set: true, updatedAt: "0001-01-01T00:00:00Z" } });
  const ilm = await differential(fx, { op: "sr-edit", args: { peer: {}, enableIlm: true }, mc: ["admin", "replicate", "update", "minio", "--enable-ilm-expiry-replication", "--json"], encrypted: enc, responder: answers });
  assert.equal(ilm.requests[0]?.query, [["api-version", "1"], ["disableILMExpiryReplication", "false"], ["enableILMExpiryReplication", "true"]]);
  assert.equal(jsonLines(ilm.ours.stdout), [{ success: true, status: "Requested site was edited successfully." }]);
  fx.recorder.clear();
  const refused = [
    ["admin", "replicate", "add", "minio"],
    ["admin", "replicate", "update", "minio", "--endpoint", "https://x:9000"],
    ["admin", "replicate", "update", "minio", "--deployment-id", "d", "--mode", "later"],
    ["admin", "replicate", "update", "minio", "--deployment-id", "d", "--bucket-bandwidth", "lots"],
    ["admin", "replicate", "update", "minio", "--deployment-id", "d", "--disable-ilm-expiry-replication"],
    ["admin", "replicate", "update", "minio", "--disable-ilm-expiry-replication", "--enable-ilm-expiry-replication"],
  ];
  // Side by side: each is refused before anything is sent.
  const outcomes = await Promise.all(refused.map((args) => fx.mc(args, { env })));
  outcomes.forEach((r, i) => assert.is(r.code, 1, refused[i]?.join(" ")));
  assert.is(fx.recorder.requests.length, 0);
});

T("info and remove: madmin v2.0.7's calls; upstream's table; removal only with --force", async () => {
  const i = await differential(fx, { op: "sr-info", mc: ["admin", "replicate", "info", "minio"], responder: answers });
  assert.equal(i.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/site-replication/info", [["api-version", "1"]]]]);
  const row = (cells: string[]): string => cells.map((c, n) => c.padEnd([36, 15, 46, 4, 10, 25][n] ?? 0)).join(" | ");
  assert.is(i.ours.stdout, [
    "SiteReplication enabled for:\n",
    row(["Deployment ID", "Site Name", "Endpoint", "Sync", "Bandwidth", "ILM Expiry Replication"]),
    row(["", "", "", "", "Per Bucket", ""]),
    row(["dep-1", "minio1", "http://127.0.0.1:9000", "✔", "10 Mb/s", "false"]),
    row(["6faeded5-5cf3-4133-8a37-07c5d500207c", "minio2", "https://minio2:9000", "", "N/A", "false"]),
    "",
  ].join("\n"));
  const ij = await fx.mc(["admin", "replicate", "info", "minio", "--json"]);
  assert.equal(jsonLines(ij.stdout), [info]);
  const rm = await differential(fx, { op: "sr-remove", args: { names: ["alpha", "baker"] }, mc: ["admin", "replicate", "rm", "minio", "alpha", "baker", "--force"], responder: answers });
  assert.equal(rm.requests.map((q) => [q.method, q.path, q.query, q.body]), [["PUT", "/minio/admin/v3/site-replication/remove", [["api-version", "1"]], { requestingDepID: "", sites: ["alpha", "baker"], all: false }]]);
  assert.is(rm.ours.stdout, "Following site(s) [alpha baker] were removed successfully\n");
  const all = await differential(fx, { op: "sr-remove", args: { all: true }, mc: ["admin", "replicate", "remove", "minio", "--all", "--force"], responder: answers });
  assert.equal(all.requests[0]?.body, { requestingDepID: "", sites: null, all: true });
  assert.is(all.ours.stdout, "All site(s) were removed successfully\n");
  fx.recorder.clear();
  const unforced = await fx.mc(["admin", "replicate", "rm", "minio", "alpha"]);
  assert.is(unforced.code, 1);
  assert.match(unforced.stderr, /Site removal requires --force flag/);
  assert.is(fx.recorder.requests.length, 0);
});

T("status: GET site-replication/status with v3's query (everything by default, one kind, one entity); upstream's summary", async () => {
  const s = await differential(fx, { op: "sr-status", args: { withBuckets: true, withPolicies: true, withUsers: true, withGroups: true, withMetrics: true, withIlmExpiryRules: true }, mc: ["admin", "replicate", "status", "minio"], responder: answers });
  assert.equal(s.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/site-replication/status", [["api-version", "1"], ["buckets", "true"], ["groups", "true"], ["ilm-expiry-rules", "true"], ["metrics", "true"], ["peer-state", "false"], ["policies", "true"], ["showDeleted", "false"], ["users", "true"]]]]);
  const r = (cells: string[]): string => cells.map((c) => c.padEnd(15)).join(" | ");
  assert.is(s.ours.stdout, [
    "Bucket replication status:", "●  1/2 Buckets in sync\n", r(["Bucket", "MINIO1", "MINIO2"]), r(["photos", "✔  in-sync", "✗  in-sync"]), "",
    "Policy replication status:", "●  1/1 Policies in sync\n",
    "User replication status:", "●  1/1 Users in sync\n",
    "Group replication status:", "No Groups present\n",
    "ILM Expiry Rules replication status:", "No ILM Expiry Rules present\n",
    "Object replication status:", "Replication status since 1 hour ago", "https://minio2:9000", "Replicated:    3 objects (1.5 KiB)",
    "Received:      0 objects (0 B)", "Queued:        ● 0 objects, (0 B) (avg: 0 objects, 0 B; max: 0 objects, 0 B)", "Workers:       2 (avg: 1; max 4) ",
    "Link:          ● online (total downtime: 0 seconds)", "Errors:        0 in last 1 minute; 1 in last 1hr; 2 since uptime", "", "",
  ].join("\n"));
  const b = await differential(fx, { op: "sr-status", args: { withBuckets: true }, mc: ["admin", "replicate", "status", "minio", "--buckets"], responder: answers });
  assert.equal(b.requests[0]?.query.filter(([, v]) => v === "true"), [["buckets", "true"]]);
  const e = await differential(fx, { op: "sr-status", args: { entity: "bucket", entityValue: "photos" }, mc: ["admin", "replicate", "status", "minio", "--bucket", "photos", "--json"], responder: answers });
  assert.equal(e.requests[0]?.query, [["api-version", "1"], ["buckets", "false"], ["entity", "bucket"], ["entityvalue", "photos"], ["groups", "false"], ["ilm-expiry-rules", "false"], ["metrics", "false"], ["peer-state", "false"], ["policies", "false"], ["showDeleted", "false"], ["users", "false"]]);
  assert.equal(jsonLines(e.ours.stdout), [status]);
  // The ILM expiry rules (madmin v3): the section of rules out of sync, and one rule's summary.
  const ilmStatus = { ...status, MaxILMExpiryRules: 3, ILMExpiryStats: { "expire-logs": { "dep-1": { DeploymentID: "dep-1", HasILMExpiryRules: true }, "dep-2": { DeploymentID: "dep-2", HasILMExpiryRules: true, ILMExpiryRuleMismatch: true } } } };
  const withIlm = (req: Recorded): Answer => (req.path.endsWith("/site-replication/status") ? { body: JSON.stringify(ilmStatus) } : answers(req));
  const rules = await differential(fx, { op: "sr-status", args: { withIlmExpiryRules: true }, mc: ["admin", "replicate", "status", "minio", "--ilm-expiry-rules"], responder: withIlm });
  assert.equal(rules.requests[0]?.query.filter(([, v]) => v === "true"), [["ilm-expiry-rules", "true"]]);
  assert.is(rules.ours.stdout, ["ILM Expiry Rules replication status:", "●  2/3 ILM Expiry Rules in sync\n", r(["ILM Expiry R...", "MINIO1", "MINIO2"]), r(["expire-logs", "✔  in-sync", "✗  in-sync"]), "", ""].join("\n"));
  const rule = await differential(fx, { op: "sr-status", args: { entity: "ilm-expiry-rule", entityValue: "expire-logs" }, mc: ["admin", "replicate", "status", "minio", "--ilm-expiry-rule", "expire-logs"], responder: withIlm });
  assert.equal(rule.requests[0]?.query.filter(([k]) => k.startsWith("entity")), [["entity", "ilm-expiry-rule"], ["entityvalue", "expire-logs"]]);
  assert.is(rule.ours.stdout, ["●  ILM Expiry Rule replication summary for: expire-logs\n", r(["ILMExpiryRule", "MINIO1", "MINIO2"]), r(["ILM Expiry Rule", "✔ ", "✗ "]), ""].join("\n"));
  const none = await differential(fx, { op: "sr-status", args: { withIlmExpiryRules: true }, mc: ["admin", "replicate", "status", "minio", "--ilm-expiry-rules"], responder: answers });
  assert.is(none.ours.stdout, "ILM Expiry Rules replication status:\nNo ILM Expiry Rules present\n\n");
  const bads = [["--buckets", "--user", "foo"], ["--ilm-expiry-rules", "--bucket", "b"], ["--ilm-expiry-rule", "r", "--group", "g"]];
  const refusals = await Promise.all(bads.map((bad) => fx.mc(["admin", "replicate", "status", "minio", ...bad])));
  refusals.forEach((r, i) => assert.is(r.code, 1, bads[i]?.join(" ")));
});

T("resync start|cancel: info, the peer's deployment (start asks the peer alias's server), then PUT resync/op with v3's PeerInfo; resync status: the site-resync metrics until complete", async () => {
  const start = await differential(fx, { op: "sr-resync", args: { op: "start" }, mc: ["admin", "replicate", "resync", "start", "minio", "self2"], responder: answers, env });
  assert.equal(start.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/site-replication/info", [["api-version", "1"]]], ["GET", "/minio/admin/v3/info", []], ["PUT", "/minio/admin/v3/site-replication/resync/op", [["api-version", "1"], ["operation", "start"]]]]);
  assert.equal(start.requests[2]?.body, info.sites[1]);
  assert.is(start.ours.stdout, "Site resync started with ID rs-1\n");
  const cancel = await differential(fx, { op: "sr-resync", args: { op: "cancel", site: "minio1" }, mc: ["admin", "replicate", "resync", "cancel", "minio", "minio1", "--json"], responder: answers });
  assert.equal(cancel.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/site-replication/info", [["api-version", "1"]]], ["PUT", "/minio/admin/v3/site-replication/resync/op", [["api-version", "1"], ["operation", "cancel"]]]]);
  assert.equal(cancel.requests[1]?.body, info.sites[0]);
  assert.equal(jsonLines(cancel.ours.stdout), [{ op: "cancel", id: "rs-1", status: "success", buckets: [{ bucket: "photos", status: "started" }] }]);
  const st = await differential(fx, { op: "sr-resync-status", args: { site: "minio2" }, mc: ["admin", "replicate", "resync", "status", "minio", "minio2"], responder: answers });
  assert.equal(st.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/site-replication/info", [["api-version", "1"]]], ["GET", "/minio/admin/v3/metrics", [["by-depID", "6faeded5-5cf3-4133-8a37-07c5d500207c"], ["disks", ""], ["hosts", ""], ["interval", "0s"], ["n", "0"], ["types", "16"]]]]);
  assert.is(st.ours.stdout, "✔ ✔ ✔ \nResyncID:      rs-1\nObjects:       20\nVersions:      20\nFailedObjects: 0\nThroughput:    1.0 KiB/s\nIOPs:          2.00 objs/s\nTransferred:   10 KiB\nElapsed:       10s\nCurrObjName:   photos/z.jpg\n");
  const missing = await fx.mc(["admin", "replicate", "resync", "cancel", "minio", "nosuch"]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /alias provided is not part of cluster replication/);
});

T.run();
