// mc admin user|group|policy|accesskey|config|service against Ceph RGW, a
// server without MinIO's admin API: each fails in one line naming the
// missing capability and the server's error code, exit 1 (issue 25).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "../mc/mc-runner.js";

const fx = await startMcFixture();
// RGW reads /minio/admin/v3/… as a key in a bucket named `minio`, which does not exist.
const code = "(NoSuchBucket|AccessDenied|NoSuchKey|MethodNotAllowed|InvalidRequest|InvalidArgument|NotImplemented)";

const T = suite("mc admin user… against Ceph RGW");
T.after(() => fx.stop());

const users = "User management";
const svc = "Service account management";
const groups = "Group management";
const policy = "IAM policy management";
const keys = "Access key management";
const cases: readonly [readonly string[], string][] = [
  [["admin", "user", "add", "rgw", "alice", "alicesecret"], users],
  [["admin", "user", "disable", "rgw", "alice"], users],
  [["admin", "user", "enable", "rgw", "alice"], users],
  [["admin", "user", "remove", "rgw", "alice"], users],
  [["admin", "user", "list", "rgw"], users],
  [["admin", "user", "info", "rgw", "alice"], users],
  [["admin", "user", "sts", "info", "rgw", "STS1"], users],
  [["admin", "user", "svcacct", "add", "rgw", "alice"], svc],
  [["admin", "user", "svcacct", "list", "rgw", "alice"], svc],
  [["admin", "user", "svcacct", "info", "rgw", "SVC1"], svc],
  [["admin", "user", "svcacct", "edit", "rgw", "SVC1", "--name", "n"], svc],
  [["admin", "user", "svcacct", "enable", "rgw", "SVC1"], svc],
  [["admin", "user", "svcacct", "disable", "rgw", "SVC1"], svc],
  [["admin", "user", "svcacct", "remove", "rgw", "SVC1"], svc],
  [["admin", "group", "add", "rgw", "ops", "alice"], groups],
  [["admin", "group", "remove", "rgw", "ops"], groups],
  [["admin", "group", "info", "rgw", "ops"], groups],
  [["admin", "group", "list", "rgw"], groups],
  [["admin", "group", "enable", "rgw", "ops"], groups],
  [["admin", "group", "disable", "rgw", "ops"], groups],
  [["admin", "policy", "create", "rgw", "p1", "package.json"], policy],
  [["admin", "policy", "remove", "rgw", "p1"], policy],
  [["admin", "policy", "list", "rgw"], policy],
  [["admin", "policy", "info", "rgw", "p1"], policy],
  [["admin", "policy", "attach", "rgw", "p1", "--user", "alice"], policy],
  [["admin", "policy", "detach", "rgw", "p1", "--group", "ops"], policy],
  [["admin", "policy", "entities", "rgw", "--user", "alice"], policy],
  [["admin", "accesskey", "list", "rgw"], keys],
  [["admin", "accesskey", "create", "rgw", "alice"], keys],
  [["admin", "accesskey", "info", "rgw", "K1"], keys],
  [["admin", "accesskey", "edit", "rgw", "K1", "--name", "n"], keys],
  [["admin", "accesskey", "enable", "rgw", "K1"], keys],
  [["admin", "accesskey", "disable", "rgw", "K1"], keys],
  [["admin", "accesskey", "remove", "rgw", "K1"], keys],
];

T("each command: one line naming the missing API and RGW's error code, exit 1, nothing on stdout", async () => {
  // Four at a time: each is a separate mc process waiting on RGW.
  const results = [];
  for (let i = 0; i < cases.length; i += 4) results.push(...(await Promise.all(cases.slice(i, i + 4).map(([args]) => fx.mc(args)))));
  for (const [n, [args, says]] of cases.entries()) {
    const r = results[n] ?? { code: -1, stdout: "", stderr: "" };
    const what = args.slice(0, args.indexOf("rgw")).join(" ");
    assert.is(r.code, 1, `${what}: ${r.stdout}`);
    assert.is(r.stdout, "", what);
    assert.match(r.stderr, new RegExp(`^mc: <ERROR> ${says} needs MinIO's admin API, which this server does not have\\. Server error code: ${code}\\.\\n$`), what);
  }
});

T("--json: the server's code in .error.cause.error.Code", async () => {
  const j = await fx.mc(["admin", "user", "list", "rgw", "--json"]);
  assert.is(j.code, 1);
  const [e] = jsonLines(j.stdout) as { error: { cause: { error: Record<string, string> } } }[];
  assert.match(e?.error.cause.error["Code"] ?? "", new RegExp(`^${code}$`));
});

T.run();
