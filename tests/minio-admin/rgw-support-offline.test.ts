// mc license update|info and support perf (net, drive, object, client,
// site-replication)|inspect|callhome|upload|top
// api|drive|net|rpc against Ceph RGW, a server without MinIO's admin API
// (issue 24): each fails in one line naming the missing capability and RGW's
// error code, exit 1, and writes nothing locally. The commands run side by
// side against the one RGW.
import { generateKeyPairSync, sign } from "node:crypto";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "../mc/mc-runner.js";

const fx = await startMcFixture();
// RGW reads /minio/admin/v3/… as a key in a bucket named `minio`, which does not exist.
const code = "(NoSuchBucket|AccessDenied|NoSuchKey|MethodNotAllowed|InvalidRequest|InvalidArgument|NotImplemented)";
const keys = generateKeyPairSync("ec", { namedCurve: "secp384r1" });
const env = { MC_SUBNET_LICENSE_PUBKEY: keys.publicKey.export({ type: "spki", format: "pem" }).toString() };
const data = `${Buffer.from(JSON.stringify({ alg: "ES384" })).toString("base64url")}.${Buffer.from(JSON.stringify({ aid: 1, org: "o", cap: 1, plan: "STANDARD", iat: 1704164645, exp: 4102444800, did: "x" })).toString("base64url")}`;
const license = `${data}.${sign("sha384", Buffer.from(data), { key: keys.privateKey, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
const inputs = await mkdtemp(join(fx.work, "..", "mc-rgw-support-in-"));
await writeFile(join(inputs, "minio.license"), license);
await writeFile(join(inputs, "trace.log"), "a log\n");

const T = suite("MinIO support and license commands against Ceph RGW");
T.after(async () => {
  await fx.stop();
  await rm(inputs, { recursive: true, force: true });
});

const cases: readonly [readonly string[], string][] = [
  [["license", "update", "rgw", join(inputs, "minio.license")], "Cluster registration"],
  [["license", "info", "rgw"], "Cluster registration"],
  [["support", "callhome", "status", "rgw"], "Callhome configuration"],
  [["support", "callhome", "enable", "rgw"], "Callhome configuration"],
  [["support", "perf", "net", "rgw"], "Performance testing"],
  [["support", "perf", "rgw"], "Performance testing"],
  [["support", "perf", "client", "rgw"], "Performance testing"],
  [["support", "perf", "site-replication", "rgw"], "Performance testing"],
  [["support", "inspect", "rgw/bucket/obj/xl.meta"], "Inspecting the cluster's raw object data"],
  [["support", "inspect", "rgw/bucket/obj/xl.meta", "--legacy"], "Inspecting the cluster's raw object data"],
  [["support", "upload", "--issue", "7", "rgw", join(inputs, "trace.log")], "Identifying the cluster for SUBNET"],
  [["support", "top", "api", "rgw"], "Tracing the cluster's API calls"],
  [["support", "top", "drive", "rgw"], "Realtime cluster metrics"],
  [["support", "top", "net", "rgw"], "Realtime cluster metrics"],
  [["support", "top", "rpc", "rgw"], "Realtime cluster metrics"],
];

T("each command: one line naming the missing API and RGW's error code, exit 1; --json puts the code in .error.cause.error.Code; nothing written", async () => {
  const results = await Promise.all(cases.map(async ([args, says]) => ({ args, says, text: await fx.mc(args, { cwd: fx.work, env }), json: await fx.mc([...args, "--json"], { cwd: fx.work, env }) })));
  for (const { args, says, text, json } of results) {
    const name = args.join(" ");
    assert.is(text.code, 1, name);
    assert.is(text.stdout, "", name);
    assert.match(text.stderr, new RegExp(`^mc: <ERROR> ${says} needs MinIO's admin API, which this server does not have\\. Server error code: ${code}\\.\\n$`), name);
    assert.is(json.code, 1, name);
    const [e] = jsonLines(json.stdout) as { error: { cause: { error: Record<string, string> } } }[];
    assert.match(e?.error.cause.error["Code"] ?? "", new RegExp(`^${code}$`), name);
  }
  assert.equal(await readdir(fx.work), []);
});

T.run();
