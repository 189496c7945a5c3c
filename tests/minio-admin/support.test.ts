// mc support top locks and mc support profile (air-gapped) against a
// recording endpoint, compared request by request with madmin-go v2.0.7
// (issue 24); the profile is written locally and nothing else is contacted.
import { createHash, randomBytes } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer } from "./go-driver.js";
import { differential, startAdminFixture } from "./fixture.js";

const fx = await startAdminFixture();
const dir = await mkdtemp(join(tmpdir(), "mc-support-"));
const locks = await cannedAnswer("top-locks");
const zip = Buffer.concat([Buffer.from("PK\x03\x04"), randomBytes(70_000)]);
// A healthinfo answer: the version record, then ever more complete reports (one pretty-printed, with characters Go escapes).
const health = [
  '{"version":"3"}',
  '{"version":"3","timestamp":"2024-01-02T03:04:05Z","minio":{"info":{"mode":"online"}}}',
  '{\n  "version": "3",\n  "timestamp": "2024-01-02T03:04:06Z",\n  "minio": {"info": {"mode": "online", "servers": [{"endpoint": "127.0.0.1:9000"}]}},\n  "sys": {"note": "a<b & c>d \\" é"}\n}',
].join("\n");
const answers = (req: { path: string }) =>
  req.path.endsWith("/top/locks") ? { body: locks } : req.path.endsWith("/profile") ? { headers: { "content-type": "application/zip" }, body: zip } : req.path.endsWith("/healthinfo") ? { body: health } : {};
const allTypes = ["minioinfo", "minioconfig", "syscpu", "sysdrivehw", "sysosinfo", "sysmem", "sysnet", "sysprocess", "syserrors", "sysservices", "sysconfig", "replication", "shardshealth"];

const T = suite("mc support (differential against madmin-go)");
T.after(async () => {
  await fx.stop();
  await rm(dir, { recursive: true, force: true });
});

T("support top locks: the same GET top/locks?count=10&stale=false; real mc's table and JSON", async () => {
  const r = await differential(fx, { op: "support-top-locks", args: { count: 10, stale: false }, mc: ["support", "top", "locks", "minio/"], responder: answers });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/top/locks", [["count", "10"], ["stale", "false"]]]]);
  const lines = r.ours.stdout.split("\n");
  assert.is(lines[0], `${"Since".padEnd(20)}  ${"Type".padEnd(6)}  ${"Owner".padEnd(20)}  ${"Resource".padEnd(150)}`);
  assert.is(lines[1], `${"3 minutes ago".padEnd(20)}  WRITE   http://127.0.0.1:...  ${"photos/2024/a b+c.jpg".padEnd(150)}`);
  assert.is(lines[2], `${"1 day ago".padEnd(20)}  READ    http://127.0.0.2:...  ${"logs/stale".padEnd(150)}`);
  const j = await fx.mc(["support", "top", "locks", "minio/", "--json"]);
  const [first, second] = jsonLines(j.stdout);
  assert.equal(first, { time: "2024-01-02T03:04:05Z", elapsed: "3m7s", resource: "photos/2024/a b+c.jpg", type: "WRITE", source: "[object-handlers.go:123:PutObject()]", serverlist: ["http://127.0.0.1:9000/"], owner: "http://127.0.0.1:9000", id: "6d8e1f0a-7a33-4b0e-9f3d-8c1f2e0a1b2c", quorum: 1, Stale: false });
  assert.equal([second?.["elapsed"], second?.["Stale"]], ["26h0m0s", true]);
});

T("support top locks --count 3 --stale: in the query as madmin sends them", async () => {
  const r = await differential(fx, { op: "support-top-locks", args: { count: 3, stale: true }, mc: ["support", "top", "locks", "minio", "--count", "3", "--stale"], responder: answers });
  assert.equal(r.requests[0]?.query, [["count", "3"], ["stale", "true"]]);
});

T("support profile (air-gapped): the same POST profile?profilerType&duration; the zip saved as ./profile.zip, an older one kept", async () => {
  const r = await differential(fx, { op: "support-profile", args: { types: "cpu,mem,goroutines,runtime", seconds: 15 }, mc: ["support", "profile", "minio"], responder: answers, cwd: dir });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["POST", "/minio/admin/v3/profile", [["duration", "15s"], ["profilerType", "cpu,mem,goroutines,runtime"]]]]);
  const ref = JSON.parse(r.reference.stdout.toString()) as { size: number; sha256: string };
  assert.ok((await readFile(join(dir, "profile.zip"))).equals(zip));
  const j = await fx.mc(["support", "profile", "minio", "--type", "cpu", "--duration", "2", "--json"], { cwd: dir });
  assert.equal(jsonLines(j.stdout), [{ status: "success", file: "profile.zip" }]);
  const saved = await readFile(join(dir, "profile.zip"));
  assert.is(createHash("sha256").update(saved).digest("hex"), ref.sha256);
  assert.is(saved.length, ref.size);
  const t = await fx.mc(["support", "profile", "minio", "--type", "mem"], { cwd: dir });
  assert.is(t.stdout, "Profiling data saved successfully at profile.zip\n");
  const files = (await readdir(dir)).sort();
  assert.is(files.length, 3, files.join(","));
  for (const backup of files.slice(1)) {
    assert.match(backup, /^profile\.zip\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d(\.\d+)?\+00-00$/);
    assert.ok((await readFile(join(dir, backup))).equals(zip));
  }
});

T("support proxy set|remove: the same encrypted PUT set-config-kv / DELETE del-config-kv as madmin; upstream's text and JSON", async () => {
  const set = await differential(fx, { op: "config-kv-set", args: { kv: "subnet proxy=http://proxy.example:3128" }, mc: ["support", "proxy", "set", "minio", "http://proxy.example:3128"], encrypted: true, responder: answers });
  assert.equal(set.requests.map((q) => [q.method, q.path, q.body]), [["PUT", "/minio/admin/v3/set-config-kv", "subnet proxy=http://proxy.example:3128"]]);
  assert.is(set.ours.stdout, "Proxy is now set to http://proxy.example:3128\n");
  const del = await differential(fx, { op: "config-kv-del", args: { k: "subnet proxy" }, mc: ["support", "proxy", "remove", "minio", "--json"], encrypted: true, responder: answers });
  assert.equal(del.requests.map((q) => [q.method, q.path, q.body]), [["DELETE", "/minio/admin/v3/del-config-kv", "subnet proxy"]]);
  assert.equal(jsonLines(del.ours.stdout), [{ status: "success" }]);
});

T("support diag (air-gapped): the same GET healthinfo as current madmin; the last report saved as ALIAS-health_TIME.json.gz, byte for byte upstream's file content", async () => {
  const where = await mkdtemp(join(dir, "diag-"));
  const r = await differential(fx, { op: "support-diag", args: { types: allTypes, deadline: "1h0m0s", anonymize: "standard" }, mc: ["support", "diag", "minio"], responder: answers, cwd: where });
  assert.equal(r.requests[0]?.query, [["anonymize", "standard"], ["deadline", "1h0m0s"], ...allTypes.map((t) => [t, "true"] as [string, string])].sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? "")));
  const [file, ...more] = await readdir(where);
  assert.is(more.length, 0);
  assert.match(file ?? "", /^minio-health_\d{14}\.json\.gz$/);
  assert.is(gunzipSync(await readFile(join(where, file ?? ""))).toString(), r.reference.stdout.toString());
  assert.match(r.ours.stdout, /WARNING!!\n.*SENSITIVE INFORMATION.*\n.*\n\*+\nMinIO diagnostics report saved at  minio-health_\d{14}\.json\.gz\n$/s);
  const narrow = await differential(fx, { op: "support-diag", args: { types: ["syscpu", "sysmem"], deadline: "10m0s", anonymize: "strict" }, mc: ["support", "diag", "minio", "--test", "syscpu,sysmem", "--deadline", "10m", "--anonymize", "strict", "--json"], responder: answers, cwd: where });
  assert.equal((jsonLines(narrow.ours.stdout)[0] as { sys: { note: string } }).sys.note, 'a<b & c>d " é');
  assert.is((await readdir(where)).length, 1);
});

T("support diag: a server error record, a truncated stream or a bad flag is one line, exit 1, no file", async () => {
  const where = await mkdtemp(join(dir, "diag-bad-"));
  for (const body of ['{"version":"","error":"deadline exceeded"}', health.slice(0, -20), '{"version":"9"}\n{}']) {
    fx.recorder.respond(() => ({ body }));
    const r = await fx.mc(["support", "diag", "minio"], { cwd: where });
    assert.is(r.code, 1, body);
    assert.match(r.stderr, /^mc: <ERROR> Unable to fetch health information\. [^\n]+\n$/, body);
  }
  for (const args of [["support", "diag", "minio", "--anonymize", "none"], ["support", "diag", "minio", "--test", "cpu"]]) {
    const r = await fx.mc(args, { cwd: where });
    assert.is(r.code, 1, args.join(" "));
  }
  assert.equal(await readdir(where), []);
});

T("hostile input: bad profiler type, duration or arguments are one line, exit 1, nothing sent; a refused profile leaves no file", async () => {
  fx.recorder.clear();
  for (const args of [["support", "profile", "minio", "--type", "cpu,disk"], ["support", "profile", "minio", "--duration", "0"], ["support", "profile", "minio", "--duration", "ten"], ["support", "profile"], ["support", "top", "locks"], ["support", "top", "locks", "minio", "--count", "-1"], ["support", "proxy", "set", "minio", "http://p:1 api_key=x"], ["support", "proxy", "set", "minio", "ftp://p"], ["support", "proxy", "set", "minio", ""], ["support", "proxy", "remove"]]) {
    const r = await fx.mc(args, { cwd: dir });
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr, /^mc: <ERROR> [^\n]+\n/, args.join(" "));
  }
  assert.is(fx.recorder.requests.length, 0);
  const empty = await mkdtemp(join(dir, "refused-"));
  fx.recorder.respond(() => ({ status: 403, body: JSON.stringify({ Code: "AccessDenied", Message: "Access Denied." }) }));
  const r = await fx.mc(["support", "profile", "minio"], { cwd: empty });
  assert.is(r.code, 1);
  assert.is(r.stderr, "mc: <ERROR> Unable to save profile data. Access Denied.\n");
  assert.equal(await readdir(empty), []);
});

T.run();
