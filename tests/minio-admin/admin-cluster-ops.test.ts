// mc admin heal, top locks, prometheus generate|metrics, cluster bucket|iam
// export|import, decommission start|status|cancel, rebalance
// start|status|stop and info --offline against a recording endpoint,
// compared request by request with the reference driver (madmin-go v2.0.7;
// import-iam-v2 as madmin v3 sends it; the metrics GET as upstream mc sends
// it) (issue 25).
import { createHmac } from "node:crypto";
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer } from "./go-driver.js";
import { differential, keys, startAdminFixture } from "./fixture.js";
import type { Answer, Recorded } from "./recorder.js";

const fx = await startAdminFixture();
const dir = await mkdtemp(join(tmpdir(), "mc-admin-cluster-"));
const names = ["heal-start", "heal-status", "bg-heal", "admin-top-locks", "pools", "pool-complete", "rebalance-status", "bucket-import", "server-info"] as const;
const canned = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await cannedAnswer(n)] as const))) as Record<(typeof names)[number], Buffer>;
// The smallest zip Go's zip.NewReader takes: an end-of-central-directory record alone.
const emptyZip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]);
const exported = Buffer.concat([Buffer.from("PK\x03\x04exported-bytes"), emptyZip]);
const metricsText = "# HELP minio_cluster_nodes_online_total Total number of MinIO nodes online\n# TYPE minio_cluster_nodes_online_total gauge\nminio_cluster_nodes_online_total{server=\"127.0.0.1:9000\"} 1\n# HELP minio_s3_requests_total Total number of S3 requests\n# TYPE minio_s3_requests_total counter\nminio_s3_requests_total{api=\"getobject\",server=\"127.0.0.1:9000\"} 1234567\n";
let iamV2 = true;

const answers = (req: Recorded): Answer => {
  const p = req.path.replace("/minio/admin/v3", "");
  const q = new URLSearchParams(req.query);
  if (p === "/background-heal/status") return { body: canned["bg-heal"] };
  if (p.startsWith("/heal/")) return { body: q.has("clientToken") ? canned["heal-status"] : canned["heal-start"] };
  if (p === "/top/locks") return { body: canned["admin-top-locks"] };
  if (p.startsWith("/minio/v2/metrics/") || p.startsWith("/minio/metrics/v3")) return { body: metricsText };
  if (p === "/export-bucket-metadata" || p === "/export-iam") return { body: exported };
  if (p === "/import-bucket-metadata") return { body: canned["bucket-import"] };
  if (p === "/import-iam-v2") return iamV2 ? { body: JSON.stringify({ added: { policies: ["p1"], users: ["alice", "bob"], userPolicies: [{ alice: ["p1"] }] }, failed: { groups: [{ name: "ops", error: {} }] } }) } : { status: 404, body: JSON.stringify({ Code: "XMinioAdminAPINotFound", Message: "no import-iam-v2" }) };
  if (p === "/pools/list") return { body: canned.pools };
  if (p === "/pools/status") return { body: canned["pool-complete"] };
  if (p === "/rebalance/start") return { body: JSON.stringify({ id: "rb-1" }) };
  if (p === "/rebalance/status") return { body: canned["rebalance-status"] };
  if (p === "/info") return { body: canned["server-info"] };
  return {};
};

const T = suite("mc admin heal|top locks|prometheus|cluster|decommission|rebalance|info --offline (differential against the reference driver)");
T.after(async () => {
  await fx.stop();
  await rm(dir, { recursive: true, force: true });
});

T("heal: background status without a bucket; a sequence started with its options and followed by client token; quiet lines, totals, JSON; force-stop", async () => {
  const bg = await differential(fx, { op: "heal", args: {}, mc: ["admin", "heal", "minio/"], responder: answers });
  assert.equal(bg.requests.map((q) => `${q.method} ${q.path}`), ["POST /minio/admin/v3/background-heal/status"]);
  assert.is(bg.ours.stdout, "Background healing status:\n ●  1234 item(s) scanned in total\n\n");
  const r = await differential(fx, { op: "heal", args: { bucket: "photos", prefix: "dir", recursive: true }, mc: ["admin", "heal", "-r", "minio/photos/dir"], responder: answers });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.query, q.body]), [
    ["POST", "/minio/admin/v3/heal/photos/dir", [], { recursive: true, dryRun: false, remove: false, recreate: false, scanMode: 1, nolock: false }],
    ["POST", "/minio/admin/v3/heal/photos/dir", [["clientToken", "tok-1"]], ""],
  ]);
  assert.match(r.ours.stdout, /^\[Yellow ->  Green\] photos\/a b\.jpg\n\[Red    ->    Red\] photos\/\n\[Green  ->  Green\] \*\* system:disk-format \*\*\nHealed:\t1\/1 objects; 1 KiB in \d+h\d+m\d+s\n$/);
  const j = await differential(fx, { op: "heal", args: { bucket: "photos", deep: true, dryRun: true, forceStart: true, recursive: true }, mc: ["admin", "heal", "minio/photos", "-r", "--scan", "deep", "--dry-run", "--force-start", "--json"], responder: answers });
  assert.equal(j.requests.map((q) => [q.path, q.query]), [["/minio/admin/v3/heal/photos", [["forceStart", "true"]]], ["/minio/admin/v3/heal/photos", [["clientToken", "tok-1"], ["forceStart", "true"]]]]);
  assert.equal(j.requests[0]?.body, { recursive: true, dryRun: true, remove: false, recreate: false, scanMode: 2, nolock: false });
  const lines = jsonLines(j.ours.stdout);
  assert.equal(lines[0], { status: "success", type: "object", name: "photos/a b.jpg", before: { color: "yellow", offline: 0, online: 3, missing: 1, corrupted: 0, drives: [{ uuid: "u0", endpoint: "/data1", state: "ok" }, { uuid: "u1", endpoint: "/data2", state: "ok" }, { uuid: "u2", endpoint: "/data3", state: "missing" }, { uuid: "u3", endpoint: "/data4", state: "ok" }] }, after: { color: "green", offline: 0, online: 4, missing: 0, corrupted: 0, drives: [{ uuid: "u0", endpoint: "/data1", state: "ok" }, { uuid: "u1", endpoint: "/data2", state: "ok" }, { uuid: "u2", endpoint: "/data3", state: "ok" }, { uuid: "u3", endpoint: "/data4", state: "ok" }] }, size: 1536 });
  const { duration, ...summary } = lines[3] ?? {};
  assert.equal(summary, { status: "success", type: "summary", objects_scanned: 1, objects_healed: 1, items_scanned: 3, items_healed: 1, size: 1536 });
  assert.type(duration, "number");
  const stop = await differential(fx, { op: "heal", args: { bucket: "photos", forceStop: true }, mc: ["admin", "heal", "minio/photos", "--force-stop"], responder: answers });
  assert.equal(stop.requests.map((q) => [q.path, q.query]), [["/minio/admin/v3/heal/photos", [["forceStop", "true"]]]]);
  assert.is(stop.ours.stdout, "Heal stopped successfully at `minio/photos`.\n");
});

T("top locks: GET /top/locks?count&stale as madmin's TopLocksWithOpts; upstream's table and JSON", async () => {
  const r = await differential(fx, { op: "top-locks", args: { count: 10, stale: true }, mc: ["admin", "top", "locks", "minio", "--stale"], responder: answers });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/top/locks", [["count", "10"], ["stale", "true"]]]]);
  assert.is(r.ours.stdout, "Time                  Type    Resource\n3 hours               WRITE   photos/a b.jpg\n");
  const j = await fx.mc(["admin", "top", "locks", "minio", "--json"]);
  const [lock] = JSON.parse(canned["admin-top-locks"].toString()) as unknown[];
  assert.equal(jsonLines(j.stdout), [{ status: "success", locks: lock }]);
});

T("prometheus generate: nothing sent; upstream's YAML with an HS512 bearer token of the alias's keys; --public and node; metrics: the same GET as upstream, text as sent, --json families", async () => {
  fx.recorder.clear();
  const g = await fx.mc(["admin", "prometheus", "generate", "minio"]);
  assert.is(g.code, 0, g.stderr);
  const token = /bearer_token: (\S+)/.exec(g.stdout)?.[1] ?? "";
  assert.is(g.stdout, `scrape_configs:\n- job_name: minio-job\n  bearer_token: ${token}\n  metrics_path: /minio/v2/metrics/cluster\n  scheme: http\n  static_configs:\n  - targets: ['${fx.recorder.host}']\n\n`);
  const [head, claims, sig] = token.split(".");
  assert.is(sig, createHmac("sha512", keys.secret).update(`${head}.${claims}`).digest("base64url"));
  assert.equal(JSON.parse(Buffer.from(head ?? "", "base64url").toString()), { alg: "HS512", typ: "JWT" });
  const c = JSON.parse(Buffer.from(claims ?? "", "base64url").toString()) as { iss: string; sub: string; exp: number };
  assert.equal([c.iss, c.sub], ["prometheus", keys.access]);
  assert.ok(c.exp > Date.now() / 1000 + 99 * 365 * 86400);
  const p = await fx.mc(["admin", "prometheus", "generate", "minio", "node", "--public", "--json"]);
  assert.equal(jsonLines(p.stdout), [{ jobName: "minio-job-node", metricsPath: "/minio/v2/metrics/node", scheme: "http", staticConfigs: [{ targets: [fx.recorder.host] }] }]);
  assert.is(fx.recorder.requests.length, 0, "generate sends nothing");
  const m = await differential(fx, { op: "prometheus-metrics", args: { url: `${fx.recorder.url}/minio/v2/metrics/node` }, mc: ["admin", "prometheus", "metrics", "minio", "node"], responder: answers });
  assert.equal(m.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/v2/metrics/node", []]]);
  const auth = fx.recorder.requests[0]?.headers["authorization"] ?? "";
  const [h2, c2, s2] = auth.replace(/^Bearer /, "").split(".");
  assert.is(s2, createHmac("sha512", keys.secret).update(`${h2}.${c2}`).digest("base64url"));
  assert.is(m.ours.stdout, `${metricsText}\n`);
  const mj = await fx.mc(["admin", "prometheus", "metrics", "minio", "--json"]);
  assert.equal(jsonLines(mj.stdout), [[
    { name: "minio_cluster_nodes_online_total", help: "Total number of MinIO nodes online", type: "GAUGE", metrics: [{ labels: { server: "127.0.0.1:9000" }, value: "1" }] },
    { name: "minio_s3_requests_total", help: "Total number of S3 requests", type: "COUNTER", metrics: [{ labels: { api: "getobject", server: "127.0.0.1:9000" }, value: "1.234567e+06" }] },
  ]] as unknown as Record<string, unknown>[]);
  // --api-version v3: the v3 paths (everything, one type, one bucket's), the same GET as upstream; --bucket only where upstream takes it.
  const g3 = await fx.mc(["admin", "prometheus", "generate", "minio", "api", "--bucket", "photos", "--api-version", "v3", "--public", "--json"]);
  assert.equal(jsonLines(g3.stdout), [{ jobName: "minio-job-api", metricsPath: "/minio/metrics/v3/bucket/api/photos", scheme: "http", staticConfigs: [{ targets: [fx.recorder.host] }] }]);
  const g3all = await fx.mc(["admin", "prometheus", "generate", "minio", "--api-version", "v3", "--public"]);
  assert.is(g3all.stdout, `scrape_configs:\n- job_name: minio-job\n  metrics_path: /minio/metrics/v3\n  scheme: http\n  static_configs:\n  - targets: ['${fx.recorder.host}']\n\n`);
  const m3 = await differential(fx, { op: "prometheus-metrics", args: { url: `${fx.recorder.url}/minio/metrics/v3/bucket/replication/photos` }, mc: ["admin", "prometheus", "metrics", "minio", "replication", "--bucket", "photos", "--api-version", "v3"], responder: answers });
  assert.equal(m3.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/metrics/v3/bucket/replication/photos", []]]);
  assert.is(m3.ours.stdout, `${metricsText}\n`);
  const m3all = await differential(fx, { op: "prometheus-metrics", args: { url: `${fx.recorder.url}/minio/metrics/v3` }, mc: ["admin", "prometheus", "metrics", "minio", "--api-version", "v3", "--json"], responder: answers });
  assert.equal(m3all.requests.map((q) => q.path), ["/minio/metrics/v3"]);
  assert.is((jsonLines(m3all.ours.stdout)[0] as unknown as unknown[]).length, 2);
  fx.recorder.clear();
  const refusals: [string[], string][] = [
    [["metrics", "minio", "disks"], "invalid metric type `disks`. valid values are `bucket, cluster, node, resource`"],
    [["metrics", "minio", "node", "--bucket", "photos"], "Flag `bucket` is not supported with v2 metrics"],
    [["metrics", "minio", "nodes", "--api-version", "v3"], "invalid metric type `nodes`. valid values are `api, audit, cluster, debug, ilm, logger, notification, replication, scanner, system`"],
    [["generate", "minio", "--bucket", "photos", "--api-version", "v3"], "metric type must be passed with --bucket. valid values are `api, replication`"],
    [["generate", "minio", "system", "--bucket", "photos", "--api-version", "v3"], "--bucket is applicable only for metric types `api, replication`"],
    [["metrics", "minio", "--api-version", "v4"], "Invalid api version `v4`"],
  ];
  for (const [args, says] of refusals) {
    const r = await fx.mc(["admin", "prometheus", ...args]);
    assert.is(r.code, 1, args.join(" "));
    assert.is(r.stderr, `mc: <ERROR> ${says}\n`, args.join(" "));
  }
  assert.is(fx.recorder.requests.length, 0);
});

T("cluster bucket|iam export: the same GETs; the zip saved 0600 as upstream names it, an older one kept; import: the zip as sent, upstream's summary; import-iam-v2 then import-iam", async () => {
  const ex = await differential(fx, { op: "bucket-export", args: { bucket: "" }, mc: ["admin", "cluster", "bucket", "export", "minio"], responder: answers, cwd: dir });
  assert.equal(ex.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/export-bucket-metadata", [["bucket", ""]]]]);
  assert.is(ex.ours.stdout, "Bucket metadata successfully downloaded as minio-bucket-metadata.zip\n");
  assert.equal(await readFile(join(dir, "minio-bucket-metadata.zip")), exported);
  assert.is((await stat(join(dir, "minio-bucket-metadata.zip"))).mode & 0o777, 0o600);
  const again = await fx.mc(["admin", "cluster", "bucket", "export", "minio", "--json"], { cwd: dir });
  assert.equal(jsonLines(again.stdout), [{ file: "minio-bucket-metadata.zip" }]);
  assert.ok((await readdir(dir)).some((f) => /^minio-bucket-metadata\.zip\.\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}/.test(f)), "the older export is kept");
  const one = await differential(fx, { op: "bucket-export", args: { bucket: "photos" }, mc: ["admin", "cluster", "bucket", "export", "minio/photos/"], responder: answers, cwd: dir });
  assert.equal(one.requests[0]?.query, [["bucket", "photos"]]);
  assert.equal(await readFile(join(dir, "minio", "photos-photos-metadata.zip")), exported);
  const zipFile = join(dir, "meta.zip");
  await writeFile(zipFile, exported);
  const im = await differential(fx, { op: "bucket-import", args: { bucket: "", zip: exported.toString("base64") }, mc: ["admin", "cluster", "bucket", "import", "minio", zipFile], responder: answers });
  assert.equal(im.requests.map((q) => [q.method, q.path, q.query]), [["PUT", "/minio/admin/v3/import-bucket-metadata", [["bucket", ""]]]]);
  assert.is(fx.recorder.requests[0]?.body.equals(exported), true);
  assert.is(im.ours.stdout, "\n1/2 buckets were imported successfully.\nErrors: \n\nName      : logs\n  Object lock:  ✗ \n  Quota:  ✔ \n\n\n");
  const ij = await fx.mc(["admin", "cluster", "bucket", "import", "minio", zipFile, "--json"]);
  assert.equal(jsonLines(ij.stdout), [(JSON.parse(canned["bucket-import"].toString()) as { buckets: Record<string, unknown> }).buckets]);
  await writeFile(join(dir, "bad.zip"), "not a zip");
  fx.recorder.clear();
  const bad = await fx.mc(["admin", "cluster", "bucket", "import", "minio", join(dir, "bad.zip")]);
  assert.is(bad.code, 1);
  assert.is(bad.stderr, `mc: <ERROR> Unable to read zip file ${join(dir, "bad.zip")}. zip: not a valid zip file.\n`);
  assert.is(fx.recorder.requests.length, 0);
  const iex = await differential(fx, { op: "iam-export", mc: ["admin", "cluster", "iam", "export", "minio", "-o", join(dir, "iam.zip")], responder: answers });
  assert.equal(iex.requests.map((q) => `${q.method} ${q.path}`), ["GET /minio/admin/v3/export-iam"]);
  assert.equal(await readFile(join(dir, "iam.zip")), exported);
  iamV2 = true;
  const iim = await differential(fx, { op: "iam-import", args: { zip: exported.toString("base64") }, mc: ["admin", "cluster", "iam", "import", "minio", zipFile], responder: answers });
  assert.equal(iim.requests.map((q) => `${q.method} ${q.path}`), ["PUT /minio/admin/v3/import-iam-v2"]);
  assert.is(iim.ours.stdout, "Added policies: p1\nAdded users: alice, bob\nAdded policies for users: alice\nFailed to add groups: ops\n");
  iamV2 = false;
  const old = await differential(fx, { op: "iam-import", args: { zip: exported.toString("base64") }, mc: ["admin", "cluster", "iam", "import", "minio", zipFile], responder: answers });
  assert.equal(old.requests.map((q) => `${q.method} ${q.path}`), ["PUT /minio/admin/v3/import-iam-v2", "PUT /minio/admin/v3/import-iam"]);
  assert.is(old.ours.stdout, `IAM info imported to minio from ${zipFile}\n`);
});

T("decommission start|status|cancel and rebalance start|status|stop: the pool calls of madmin; upstream's messages and tables", async () => {
  const pool = "http://server{5...8}/disk{1...4}";
  const start = await differential(fx, { op: "decom", args: { op: "start", pool }, mc: ["admin", "decommission", "start", "minio/", pool], responder: answers });
  assert.equal(start.requests.map((q) => [q.method, q.path, q.query]), [["POST", "/minio/admin/v3/pools/decommission", [["pool", pool]]]]);
  assert.is(start.ours.stdout, `Decommission started successfully for \`${pool}\`.\n`);
  const one = await differential(fx, { op: "decom", args: { op: "status", pool }, mc: ["admin", "decommission", "status", "minio", pool], responder: answers });
  assert.equal(one.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/pools/status", [["pool", pool]]]]);
  assert.is(one.ours.stdout, `Decommission of pool ${pool} is complete, you may now remove it from server command line\n`);
  const all = await differential(fx, { op: "decom", args: { op: "status" }, mc: ["admin", "decommission", "status", "minio"], responder: answers });
  assert.equal(all.requests.map((q) => [q.method, q.path]), [["GET", "/minio/admin/v3/pools/list"]]);
  assert.is(all.ours.stdout, [
    "┌─────┬──────────────────────────────────┬────────────────────┬──────────┐",
    "│ ID  │ Pools                            │ Drives Usage       │ Status   │",
    "│ 1st │ http://server{1...4}/disk{1...4} │ 0% (total: 0B)     │ Active   │",
    "│ 2nd │ http://server{5...8}/disk{1...4} │ 50.0% (total: 4.0 GiB) │ Draining │",
    "└─────┴──────────────────────────────────┴────────────────────┴──────────┘",
    "",
  ].join("\n").replace("│ 0% (total: 0B)     │", "│ 0% (total: 0B)         │").replace("┬────────────────────┬", "┬────────────────────────┬").replace("┴────────────────────┴", "┴────────────────────────┴").replace("│ Drives Usage       │", "│ Drives Usage           │"));
  const cancel = await differential(fx, { op: "decom", args: { op: "cancel", pool }, mc: ["admin", "decommission", "cancel", "minio", pool], responder: answers });
  assert.equal(cancel.requests.map((q) => [q.method, q.path, q.query]), [["POST", "/minio/admin/v3/pools/cancel", [["pool", pool]]]]);
  assert.is(cancel.ours.stdout, "");
  const list = await differential(fx, { op: "decom", args: { op: "cancel" }, mc: ["admin", "decommission", "cancel", "minio", "--json"], responder: answers });
  assert.equal(list.requests.map((q) => [q.method, q.path]), [["GET", "/minio/admin/v3/pools/list"]]);
  const rs = await differential(fx, { op: "rebalance", args: { op: "start" }, mc: ["admin", "rebalance", "start", "minio", "--json"], responder: answers });
  assert.equal(rs.requests.map((q) => [q.method, q.path]), [["POST", "/minio/admin/v3/rebalance/start"]]);
  assert.equal(jsonLines(rs.ours.stdout), [{ status: "success", url: "minio", id: "rb-1" }]);
  const st = await differential(fx, { op: "rebalance", args: { op: "status" }, mc: ["admin", "rebalance", "status", "minio"], responder: answers });
  assert.equal(st.requests.map((q) => [q.method, q.path]), [["GET", "/minio/admin/v3/rebalance/status"]]);
  assert.is(st.ours.stdout, "Per-pool usage:\n┌─────────┬────────┐\n│ Pool-0  │ Pool-1 │\n│ 45.67% * │ 10.00% │\n└─────────┴────────┘\nSummary: \nData: 1.5 KiB (10 objects, 12 versions) \nTime: 1m30s (30m0s to completion)\n".replace("┌─────────┬", "┌──────────┬").replace("│ Pool-0  │", "│ Pool-0   │").replace("└─────────┴", "└──────────┴"));
  const sj = await fx.mc(["admin", "rebalance", "status", "minio", "--json"]);
  assert.equal(jsonLines(sj.stdout), [JSON.parse(canned["rebalance-status"].toString()) as Record<string, unknown>]);
  const stop = await differential(fx, { op: "rebalance", args: { op: "stop" }, mc: ["admin", "rebalance", "stop", "minio"], responder: answers });
  assert.equal(stop.requests.map((q) => [q.method, q.path]), [["POST", "/minio/admin/v3/rebalance/stop"]]);
  assert.is(stop.ours.stdout, "Rebalance stopped for minio\n");
});

T("info --offline: GET /info as madmin's ServerInfo, cut down to offline servers and drives", async () => {
  const ok = await differential(fx, { op: "server-info", mc: ["admin", "info", "minio", "--offline"], responder: answers });
  assert.equal(ok.requests.map((q) => [q.method, q.path]), [["GET", "/minio/admin/v3/info"]]);
  assert.is(ok.ours.stdout, "All servers and drives are online.\n");
  const info = JSON.parse(canned["server-info"].toString()) as { servers: Record<string, unknown>[] };
  const degraded = { ...info, servers: [...info.servers, { state: "offline", endpoint: "127.0.0.2:9000" }, { state: "online", endpoint: "127.0.0.3:9000", drives: [{ path: "/data1", state: "ok" }, { path: "/data2", state: "offline" }] }] };
  fx.recorder.respond(() => ({ body: JSON.stringify(degraded) }));
  const t = await fx.mc(["admin", "info", "minio", "--offline"]);
  assert.is(t.stdout, "●  127.0.0.2:9000\n   Uptime: offline\n●  127.0.0.3:9000\n   Drive: /data2 offline\n");
  const j = await fx.mc(["admin", "info", "minio", "--offline", "--json"]);
  const [rec] = jsonLines(j.stdout) as { info: { servers: unknown[] } }[];
  assert.equal(rec?.info.servers, [{ state: "offline", endpoint: "127.0.0.2:9000", drives: [] }, { state: "online", endpoint: "127.0.0.3:9000", drives: [{ path: "/data2", state: "offline" }] }]);
});

T.run();
