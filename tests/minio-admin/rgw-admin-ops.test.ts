// The admin commands of issue 25's second part against Ceph RGW, a server
// without MinIO's admin API: config, service, update, heal, trace, logs, top
// locks, scanner status, prometheus metrics, cluster export/import,
// decommission, rebalance, site replication, info --offline, user policy and
// accesskey sts-revoke each fail in one line naming the missing capability
// and RGW's error code, exit 1, nothing on stdout (trace --stats, scanner
// trace, scanner status --bucket, prometheus v3, replicate status ILM and
// update --bucket-bandwidth among them). (prometheus generate sends
// nothing, so it has nothing to fail on.)
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "../mc/mc-runner.js";

const fx = await startMcFixture();
const zip = join(fx.work, "backup.zip");
await writeFile(zip, Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]));
// RGW reads /minio/admin/v3/… as a key in a bucket named `minio`, which does not exist.
const code = "(NoSuchBucket|AccessDenied|NoSuchKey|MethodNotAllowed|InvalidRequest|InvalidArgument|NotImplemented)";
const env = { MC_HOST_rgw2: "http://AKSITE2:secret2@127.0.0.2:9100" };

const cases: readonly [readonly string[], string, string?][] = [
  [["admin", "accesskey", "sts-revoke", "rgw", "alice", "--all"], "Access key management"],
  [["admin", "user", "policy", "rgw", "alice"], "User management"],
  [["admin", "config", "get", "rgw"], "Server configuration"],
  [["admin", "config", "get", "rgw", "region"], "Server configuration"],
  [["admin", "config", "set", "rgw", "region", "name=us-west-1"], "Server configuration"],
  [["admin", "config", "reset", "rgw", "region"], "Server configuration"],
  [["admin", "config", "history", "rgw"], "Server configuration"],
  [["admin", "config", "restore", "rgw", "id1"], "Server configuration"],
  [["admin", "config", "export", "rgw"], "Server configuration"],
  [["admin", "config", "import", "rgw"], "Server configuration"],
  [["admin", "service", "restart", "rgw"], "Server service control"],
  [["admin", "service", "stop", "rgw"], "Server service control"],
  [["admin", "service", "freeze", "rgw"], "Server service control"],
  [["admin", "service", "unfreeze", "rgw"], "Server service control"],
  [["admin", "update", "rgw"], "Server service control"],
  [["admin", "heal", "rgw"], "Healing"],
  [["admin", "heal", "-r", "rgw/bucket"], "Healing"],
  [["admin", "trace", "rgw"], "Tracing the server's calls"],
  [["admin", "trace", "--stats", "rgw"], "Tracing the server's calls"],
  [["admin", "scanner", "trace", "rgw"], "Tracing the server's calls"],
  [["admin", "scanner", "status", "rgw", "--bucket", "photos"], "The scanner's metrics"],
  [["admin", "logs", "rgw"], "Following the server's logs"],
  [["admin", "top", "locks", "rgw"], "Listing the cluster's locks"],
  [["admin", "scanner", "status", "rgw"], "The scanner's metrics"],
  [["admin", "prometheus", "metrics", "rgw"], "Prometheus metrics", "metrics API"],
  [["admin", "prometheus", "metrics", "rgw", "api", "--api-version", "v3"], "Prometheus metrics", "metrics API"],
  [["admin", "cluster", "bucket", "export", "rgw"], "Bucket metadata export and import"],
  [["admin", "cluster", "bucket", "import", "rgw", zip], "Bucket metadata export and import"],
  [["admin", "cluster", "iam", "export", "rgw"], "IAM export and import"],
  [["admin", "cluster", "iam", "import", "rgw", zip], "IAM export and import"],
  [["admin", "decommission", "start", "rgw", "http://server{5...8}/disk{1...4}"], "Pool decommissioning"],
  [["admin", "decommission", "status", "rgw"], "Pool decommissioning"],
  [["admin", "decommission", "cancel", "rgw", "http://server{5...8}/disk{1...4}"], "Pool decommissioning"],
  [["admin", "rebalance", "start", "rgw"], "Pool rebalancing"],
  [["admin", "rebalance", "status", "rgw"], "Pool rebalancing"],
  [["admin", "rebalance", "stop", "rgw"], "Pool rebalancing"],
  [["admin", "replicate", "add", "rgw", "rgw2"], "Site replication"],
  [["admin", "replicate", "update", "rgw", "--deployment-id", "d1", "--endpoint", "https://x:9000"], "Site replication"],
  [["admin", "replicate", "remove", "rgw", "--all", "--force"], "Site replication"],
  [["admin", "replicate", "info", "rgw"], "Site replication"],
  [["admin", "replicate", "status", "rgw"], "Site replication"],
  [["admin", "replicate", "status", "rgw", "--ilm-expiry-rule", "expire-logs"], "Site replication"],
  [["admin", "replicate", "update", "rgw", "--deployment-id", "d1", "--bucket-bandwidth", "1G"], "Site replication"],
  [["admin", "replicate", "resync", "start", "rgw", "rgw2"], "Site replication"],
  [["admin", "replicate", "resync", "cancel", "rgw", "site2"], "Site replication"],
  [["admin", "replicate", "resync", "status", "rgw", "site2"], "Site replication"],
  [["admin", "info", "rgw", "--offline"], "Listing offline servers and drives"],
];

const T = suite("mc admin config|service|heal|trace|logs|… against Ceph RGW");
T.after(() => fx.stop());

T("each command: one line naming the missing API and RGW's error code, exit 1, nothing on stdout", async () => {
  // Six at a time: each is a separate mc process waiting on RGW.
  const results = [];
  for (let i = 0; i < cases.length; i += 6) results.push(...(await Promise.all(cases.slice(i, i + 6).map(([args]) => fx.mc(args, { env, input: "" })))));
  for (const [n, [args, says, api = "admin API"]] of cases.entries()) {
    const r = results[n] ?? { code: -1, stdout: "", stderr: "" };
    const what = args.join(" ");
    assert.is(r.code, 1, `${what}: ${r.stdout}${r.stderr}`);
    assert.is(r.stdout, "", what);
    assert.match(r.stderr, new RegExp(`^mc: <ERROR> ${says} needs MinIO's ${api}, which this server does not have\\. Server error code: ${code}\\.\\n$`), what);
  }
});

T("--json: the failure as one JSON line on stdout with RGW's code in .error.cause.error.Code", async () => {
  const [t, c] = await Promise.all([fx.mc(["admin", "trace", "rgw", "--json"]), fx.mc(["admin", "config", "export", "rgw", "--json"])]);
  for (const r of [t, c]) {
    assert.is(r.code, 1);
    const [e] = jsonLines(r.stdout) as { error: { cause: { error: Record<string, string> } } }[];
    assert.match(e?.error.cause.error["Code"] ?? "", new RegExp(`^${code}$`));
  }
});

T.run();
