// mc idp, license and support against Ceph RGW, a server without MinIO's
// admin API: each fails in one line naming the missing capability and the
// server's error code, exit 1, and writes nothing (issue 24).
import { readdir } from "node:fs/promises";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "../mc/mc-runner.js";

const fx = await startMcFixture();
// RGW reads /minio/admin/v3/… as a key in a bucket named `minio`, which does not exist.
const code = "(NoSuchBucket|AccessDenied|NoSuchKey|MethodNotAllowed|InvalidRequest|InvalidArgument|NotImplemented)";

const T = suite("MinIO idp, license and support commands against Ceph RGW");
T.after(() => fx.stop());

const idp = "Identity provider configuration";
const policy = "LDAP policy association";
const keys = "Access key management";
const cases: readonly [readonly string[], string][] = [
  [["idp", "ldap", "add", "rgw", "server_addr=ldap:636"], idp],
  [["idp", "openid", "update", "rgw", "keycloak", "scopes=openid"], idp],
  [["idp", "ldap", "remove", "rgw"], idp],
  [["idp", "openid", "list", "rgw"], idp],
  [["idp", "ldap", "info", "rgw"], idp],
  [["idp", "openid", "enable", "rgw", "keycloak"], idp],
  [["idp", "ldap", "disable", "rgw"], idp],
  [["idp", "ldap", "policy", "attach", "rgw", "readwrite", "--user", "alice"], policy],
  [["idp", "ldap", "policy", "detach", "rgw", "readwrite", "--group", "ops"], policy],
  [["idp", "ldap", "policy", "entities", "rgw"], policy],
  [["idp", "ldap", "accesskey", "list", "rgw"], keys],
  [["idp", "openid", "accesskey", "list", "rgw"], keys],
  [["idp", "ldap", "accesskey", "info", "rgw", "K1"], keys],
  [["idp", "ldap", "accesskey", "create", "rgw", "--access-key", "NEWKEY123", "--secret-key", "NEWSECRET123456789"], keys],
  [["idp", "openid", "accesskey", "edit", "rgw", "K1", "--name", "n"], keys],
  [["idp", "ldap", "accesskey", "enable", "rgw", "K1"], keys],
  [["idp", "openid", "accesskey", "disable", "rgw", "K1"], keys],
  [["idp", "ldap", "accesskey", "remove", "rgw", "K1"], keys],
  [["license", "register", "rgw"], "Cluster registration"],
  [["support", "top", "locks", "rgw"], "Listing the cluster's locks"],
  [["support", "profile", "rgw", "--duration", "1"], "Profiling the cluster"],
  [["support", "diag", "rgw"], "Collecting the cluster's diagnostics"],
  [["support", "proxy", "set", "rgw", "http://proxy.example:3128"], "Setting the cluster's SUBNET proxy"],
  [["support", "proxy", "remove", "rgw"], "Setting the cluster's SUBNET proxy"],
];

for (const [args, says] of cases) {
  T(`${args.slice(0, args.indexOf("rgw")).join(" ")}: one line naming the missing API and RGW's error code, exit 1`, async () => {
    const r = await fx.mc(args, { cwd: fx.work });
    assert.is(r.code, 1, r.stdout);
    assert.is(r.stdout, "");
    assert.match(r.stderr, new RegExp(`^mc: <ERROR> ${says} needs MinIO's admin API, which this server does not have\\. Server error code: ${code}\\.\\n$`));
  });
}

T("--json: the server's code in .error.cause.error.Code; nothing written locally", async () => {
  for (const args of [["idp", "openid", "list", "rgw"], ["license", "register", "rgw", "--token-file", "token"], ["support", "profile", "rgw"], ["support", "diag", "rgw"]]) {
    const j = await fx.mc([...args, "--json"], { cwd: fx.work });
    assert.is(j.code, 1);
    const [e] = jsonLines(j.stdout) as { error: { cause: { error: Record<string, string> } } }[];
    assert.match(e?.error.cause.error["Code"] ?? "", new RegExp(`^${code}$`));
  }
  assert.equal(await readdir(fx.work), []);
});

T.run();
