// mc support perf|inspect|callhome|upload and support top api|drive|net|rpc
// (issue 24), air-gapped: each compared request by request with madmin-go
// v2.0.7 doing the same against a recording endpoint, canned answers from the
// library's types printed in upstream's shapes, reports written locally and
// nothing sent anywhere but the alias's server. The live `top` views end on
// Ctrl-C (130, nothing on stderr) and on a closed pipe (141).
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { waitFor } from "../harness/wait-for.js";
import { cannedAnswer, referenceEncrypt, runDriver } from "./go-driver.js";
import { differential, keys, normalize, startAdminFixture, type AdminFixture } from "./fixture.js";
import type { Recorded, Responder } from "./recorder.js";

const fx = await startAdminFixture();
const dir = await mkdtemp(join(tmpdir(), "mc-support-offline-"));
const info = await cannedAnswer("server-info");
const help = await cannedAnswer("help-config");
/** A canned JSON array as the server streams it: one value after another. */
const stream = async (name: string): Promise<string> => (JSON.parse((await cannedAnswer(name)).toString()) as unknown[]).map((v) => JSON.stringify(v)).join("\n");
const [objectStream, driveStream, netperf, traces, driveMetrics, siteNetperf] = await Promise.all([stream("speedtest-object"), stream("speedtest-drive"), cannedAnswer("netperf"), stream("support-trace-records"), stream("metrics-drive"), cannedAnswer("site-netperf")]);
// madmin v3 ClientPerf uploads for as long as its timer runs: the endpoint answers at the head, so neither client waits.
fx.recorder.early((method, path) => method === "POST" && path.endsWith("/speedtest/client/devnull"));
/** The server's overhead in the client test (ns), taken off the time spent. */
let extraTime = 1;
const callhomeOff = await referenceEncrypt(keys.secret, Buffer.from("# MINIO_CALLHOME_FREQUENCY=12h\ncallhome enable=off frequency=24h\n"));
const inspectBody = Buffer.concat([Buffer.from([2]), randomBytes(5000)]);
const oneTimeKey = randomBytes(32);
const legacyBody = Buffer.concat([Buffer.from([1]), oneTimeKey, randomBytes(3000)]);
const supportKey = "MIIBCgKCAQEAs/128UFS9A8YSJY1XqYKt06dLVQQCGDee69T+0Tip/1jGAB4z0/3QMpH0MiS8Wjs4BRWV51qvkfAHzwwdU7y6jxU05ctb/H/WzRj3FYdhhHKdzear9TLJftlTs+xwj2XaADjbLXCV1jGLS889A7f7z5DgABlVZMQd9BjVAR8ED3xRJ2/ZCNuQVJ+A8r7TYPGMY3wWvhhPgPk3Lx4WDZxDiDNlFs4GQSaESSsiVTb9vyGe/94CsCTM6Cw9QG6ifHKCa/rFszPYdKCabAfHcS3eTr0GM+TThSsxO7KfuscbmLJkfQev1srfL2Ii2RbnysqIJVWKEwdW05ID8ryPkuTuwIDAQAB";
// madmin v3 types (v2.0.7 has no MetricNet/MetricsRPC): records as current madmin marshals them.
const netRecord = (rx: number, tx: number, at: string, final: boolean): string =>
  JSON.stringify({ hosts: ["127.0.0.1:9000"], aggregated: {}, by_host: { "127.0.0.1:9000": { net: { collected: at, interfaceName: "eth0", netstats: { Name: "eth0", RxBytes: rx, TxBytes: tx } } } }, final });
const netStream = [netRecord(1000, 5000, "2024-01-02T03:04:05Z", false), netRecord(1000 + 3 * 1048576, 5000 + 1048576, "2024-01-02T03:04:06Z", true)].join("\n");
const rpcStream = JSON.stringify({ hosts: ["127.0.0.1:9000"], aggregated: { rpc: { collectedAt: "2024-01-02T03:04:10Z", connected: 1, byDestination: { "http://127.0.0.2:9000": { collectedAt: "2024-01-02T03:04:10Z", connected: 1, lastPingMS: 1.5, lastPongTime: "2024-01-02T03:04:07Z", outQueue: 2, reconnectCount: 3, incomingStreams: 4, outgoingStreams: 5, incomingMessages: 600, outgoingMessages: 700 } } } }, final: true });

const answers: Responder = (req) => {
  const p = req.path.replace("/minio/admin/v3", "");
  if (p === "/info") return { body: info };
  if (p === "/help-config-kv") return { body: help };
  if (p === "/get-config-kv") return { body: callhomeOff };
  if (p === "/speedtest") return { body: objectStream };
  if (p === "/speedtest/drive") return { body: driveStream };
  if (p === "/speedtest/net") return { body: netperf };
  if (p === "/speedtest/site") return { body: siteNetperf };
  if (p === "/speedtest/client/devnull/extratime") return { body: JSON.stringify({ dur: extraTime }) };
  if (p === "/inspect-data") return { body: req.method === "GET" ? legacyBody : inspectBody };
  if (p === "/trace") return { hold: true, body: traces, drip: { chunk: `\n${traces.split("\n")[1] ?? ""}`, everyMs: 150 } };
  if (p === "/metrics") {
    const types = new URLSearchParams(req.query).get("types");
    return { body: types === "2" ? driveMetrics : types === "32" ? netStream : rpcStream };
  }
  return {};
};
const setConfig = (r: Recorded): boolean => r.path.endsWith("/set-config-kv");

const T = suite("mc support, the rest (air-gapped; differential against madmin-go)");
T.after(async () => {
  await fx.stop();
  await rm(dir, { recursive: true, force: true });
});

T("callhome status|enable|disable: help-config-kv, then get-config-kv or the encrypted set-config-kv, as madmin; upstream's text and JSON", async () => {
  const status = await differential(fx, { op: "support-callhome", args: { action: "status" }, mc: ["support", "callhome", "status", "minio"], responder: answers });
  assert.equal(status.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/help-config-kv", [["key", ""], ["subSys", ""]]], ["GET", "/minio/admin/v3/get-config-kv", [["key", "callhome"]]]]);
  assert.equal(JSON.parse(status.reference.stdout.toString()), { enabled: false });
  assert.is(status.ours.stdout, "Callhome is disabled\n");
  for (const [action, text] of [["enable", "Callhome is enabled"], ["disable", "Callhome is disabled"]] as const) {
    const r = await differential(fx, { op: "support-callhome", args: { action }, mc: ["support", "callhome", action, "minio"], responder: answers, encrypted: setConfig });
    assert.equal(r.requests.map((q) => [q.method, q.path, q.body]), [["GET", "/minio/admin/v3/help-config-kv", ""], ["PUT", "/minio/admin/v3/set-config-kv", `callhome enable=${action === "enable" ? "on" : "off"}`]]);
    assert.is(r.ours.stdout, `${text}\n`);
  }
  const j = await fx.mc(["support", "callhome", "enable", "minio", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ status: "enabled" }]);
  // A server without the callhome sub-system: status is disabled, enable refused; nothing set.
  fx.recorder.respond((req) => (req.path.endsWith("/help-config-kv") ? { body: JSON.stringify({ keysHelp: [{ key: "site" }] }) } : answers(req)));
  fx.recorder.clear();
  assert.is((await fx.mc(["support", "callhome", "status", "minio"])).stdout, "Callhome is disabled\n");
  const old = await fx.mc(["support", "callhome", "enable", "minio"]);
  assert.is(old.code, 1);
  assert.is(old.stderr, "mc: <ERROR> Your version of MinIO doesn't support this configuration.\n");
  assert.not.ok(fx.recorder.requests.some(setConfig));
});

T("perf (all tests): madmin's Netperf, DriveSpeedtest, Speedtest (autotuned), v3 ClientPerf and admin info in order; upstream's views; the report zip with the results and cluster.info", async () => {
  const where = await mkdtemp(join(dir, "perf-"));
  const r = await differential(fx, { op: "support-perf", args: { tests: ["net", "drive", "object", "client"], duration: "10s", size: 64 << 20, concurrent: 32, autotune: true, report: true }, mc: ["support", "perf", "minio"], responder: answers, cwd: where });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [
    ["POST", "/minio/admin/v3/speedtest/net", [["duration", "10s"]]],
    ["POST", "/minio/admin/v3/speedtest/drive", [["blocksize", "4194304"], ["filesize", "1073741824"]]],
    ["POST", "/minio/admin/v3/speedtest", [["autotune", "true"], ["concurrent", "32"], ["duration", "10s"], ["size", "67108864"]]],
    ["POST", "/minio/admin/v3/speedtest/client/devnull", []],
    ["POST", "/minio/admin/v3/speedtest/client/devnull/extratime", []],
    ["GET", "/minio/admin/v3/info", []],
  ]);
  const out = r.ours.stdout;
  assert.ok(out.includes("\nNetPerf: ✔\n\nNODE          \tRX       \tTX\n"), out);
  assert.ok(out.includes("127.0.0.1:9000\t1.0 GiB/s\t2.0 GiB/s\tErr: link flapping\n127.0.0.2:9000\t1.5 GiB/s\t1.0 GiB/s\tErr:\n"), out);
  assert.ok(out.includes("127.0.0.1:9000\t/data1\t500 MiB/s\t300 MiB/s\n127.0.0.1:9000\t/data2\t✗        \t✗        \tErr: drive not found\n127.0.0.2:9000\t/data1\t1.0 GiB/s\t512 MiB/s"), out);
  assert.ok(out.includes("PUT\t1.2 GiB/s \t19 objs/s\nGET\t2.0 GiB/s \t1,234 objs/s\n\nMinIO 2023-01-01T00:00:00Z, 2 servers, 8 drives, 64 MiB objects, 32 threads\n"), out);
  assert.match(out, new RegExp(`\\nClient: ✔\\n\\nENDPOINT +\\tTX\\nhttp://${fx.recorder.host.replace(/\./g, "\\.")}\\t[\\d.]+ [KMGT]?i?B/s\\n`));
  const [zip, ...more] = await readdir(where);
  assert.is(more.length, 0);
  assert.match(zip ?? "", /^minio-perf_\d{14}\.zip$/);
  assert.match(out, new RegExp(`\\nMinIO performance report saved at ${zip ?? ""}, please upload to SUBNET portal manually\\n$`));
  const file = join(where, zip ?? "");
  const names = execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).trim().split("\n");
  assert.equal(names, [`${(zip ?? "").replace(/\.zip$/, "")}.json`, "cluster.info"]);
  const report = JSON.parse(execFileSync("unzip", ["-p", file, names[0] ?? ""], { encoding: "utf8" })) as Record<string, { servers?: unknown[] } & Record<string, unknown>>;
  assert.equal(Object.keys(report), ["object", "network", "drive", "client"]);
  const client = report["client"] as unknown as { bytesSent: number; timeSpent: number; endpoint: string; error: string };
  assert.equal([client.endpoint, client.error, client.bytesSent > 0, client.timeSpent > 0], [`http://${fx.recorder.host}`, "", true, true]);
  const ref = JSON.parse(r.reference.stdout.toString()) as { object: { PUTStats: { throughputPerSec: number; servers: { err: string }[] } } };
  assert.is((report["object"]?.["PUT"] as { perf: { throughput: number } }).perf.throughput, ref.object.PUTStats.throughputPerSec);
  assert.equal((report["object"]?.["PUT"] as { servers: unknown[] }).servers[1], { endpoint: "127.0.0.2:9000", perf: { throughput: 644245094, objectsPerSec: 9 }, error: "disk <slow> & late" });
  assert.equal(report["network"]?.servers?.[1], { endpoint: "127.0.0.1:9000", perf: { tx: 2147483648, rx: 1073741824 }, error: "link flapping" });
  assert.equal(report["drive"]?.servers?.length, 2);
  assert.match(execFileSync("unzip", ["-p", file, names[0] ?? ""], { encoding: "utf8" }), /disk \\u003cslow\\u003e \\u0026 late/);
  const cluster = JSON.parse(execFileSync("unzip", ["-p", file, "cluster.info"], { encoding: "utf8" })) as { deployment_id: string; cluster_name: string };
  assert.equal([cluster.deployment_id, cluster.cluster_name], ["6faeded5-5cf3-4133-8a37-07c5d500207c", "minio"]);
});

T("perf drive|object --json: one record per test in upstream's PerfTestOutput shape, no report file; bad flags are one line, nothing sent", async () => {
  const where = await mkdtemp(join(dir, "perf-json-"));
  const r = await differential(fx, { op: "support-perf", args: { tests: ["object"], duration: "30s", size: 16 << 20, concurrent: 8, autotune: false }, mc: ["support", "perf", "object", "minio", "--json", "--duration", "30s", "--size", "16MiB", "--concurrent", "8"], responder: answers, cwd: where });
  const [rec] = jsonLines(r.ours.stdout) as { object: { objectSize: number; threads: number; GET: { perf: { ttfb: Record<string, number> } } } }[];
  assert.equal([rec?.object.objectSize, rec?.object.threads, Object.keys(rec?.object.GET.perf.ttfb ?? {}).length], [64 << 20, 32, 12]);
  const d = await differential(fx, { op: "support-perf", args: { tests: ["drive"], duration: "10s", serial: true }, mc: ["support", "perf", "drive", "minio", "--serial", "--json"], responder: answers, cwd: where });
  assert.equal(d.requests[0]?.query, [["blocksize", "4194304"], ["filesize", "1073741824"], ["serial", "true"]]);
  assert.equal((jsonLines(d.ours.stdout)[0] as { drive: { servers: unknown[] } }).drive.servers[0], { endpoint: "127.0.0.1:9000", perf: [{ path: "/data1", readThroughput: 524288000, writeThroughput: 314572800 }, { path: "/data2", readThroughput: 0, writeThroughput: 0, error: "drive not found" }] });
  assert.equal(await readdir(where), []);
  fx.recorder.clear();
  const bads = [["support", "perf", "disk", "minio"], ["support", "perf", "net"], ["support", "perf", "minio", "--duration", "0s"], ["support", "perf", "minio", "--size", "lots"], ["support", "perf", "minio", "--concurrent", "-2"], ["support", "perf", "minio", "--api-key", "x"]];
  for (const [args, bad] of await Promise.all(bads.map(async (args) => [args, await fx.mc(args, { cwd: where })] as const))) {
    assert.is(bad.code, 1, args.join(" "));
    assert.match(bad.stderr, /^mc: <ERROR> [^\n]+\n/, args.join(" "));
  }
  assert.is(fx.recorder.requests.length, 0);
});

T("perf client|site-replication: madmin v3's ClientPerf (an endless upload, signed as empty, then the extratime) and SiteReplicationPerf; upstream's views, JSON and report; a server overhead beyond the time spent is one line", async () => {
  const where = await mkdtemp(join(dir, "perf-v3-"));
  const c = await differential(fx, { op: "support-perf", args: { tests: ["client"], duration: "10s" }, mc: ["support", "perf", "client", "minio", "--json"], responder: answers, cwd: where });
  assert.equal(c.requests.map((q) => [q.method, q.path, q.query, q.signedHeaders, q.body]), [
    ["POST", "/minio/admin/v3/speedtest/client/devnull", [], ["host", "x-amz-content-sha256", "x-amz-date"], ""],
    ["POST", "/minio/admin/v3/speedtest/client/devnull/extratime", [], ["host", "x-amz-content-sha256", "x-amz-date"], ""],
  ]);
  // The upload is chunked (no length known), and it did carry data.
  assert.is(fx.recorder.requests[0]?.headers["transfer-encoding"], "chunked");
  assert.ok(fx.recorder.drained() > 0);
  const [cj] = jsonLines(c.ours.stdout) as { client: { bytesSent: number; timeSpent: number; endpoint: string; error: string } }[];
  assert.equal(Object.keys(cj?.client ?? {}), ["bytesSent", "timeSpent", "endpoint", "error"]);
  assert.equal([cj?.client.endpoint, cj?.client.error, (cj?.client.bytesSent ?? 0) >= 128 * 1024, (cj?.client.timeSpent ?? 0) > 0], [`http://${fx.recorder.host}`, "", true, true]);
  const ref = JSON.parse(c.reference.stdout.toString()) as { client: { endpoint: string } };
  assert.is(ref.client.endpoint, cj?.client.endpoint);
  const s = await differential(fx, { op: "support-perf", args: { tests: ["site-replication"], duration: "10s", report: true }, mc: ["support", "perf", "site-replication", "minio"], responder: answers, cwd: where });
  assert.equal(s.requests.map((q) => [q.method, q.path, q.query]), [["POST", "/minio/admin/v3/speedtest/site", [["duration", "10s"]]], ["GET", "/minio/admin/v3/info", []]]);
  assert.ok(s.ours.stdout.startsWith("\nSiteReplication: ✔\n\nENDPOINT           \tRX       \tTX\nhttps://site-a:9000\t1.0 GiB/s\t✗        \t- TXTotalDuration are zero\nhttps://site-b:9000\t1.0 GiB/s\t2.0 GiB/s\nhttps://site-c:9000\t✗        \t✗        \tErr: peer <unreachable>\n"), s.ours.stdout);
  const [zip] = (await readdir(where)).filter((f) => f.endsWith(".zip"));
  const report = JSON.parse(execFileSync("unzip", ["-p", join(where, zip ?? ""), `${(zip ?? "").replace(/\.zip$/, "")}.json`], { encoding: "utf8" })) as { siteReplication: { servers: unknown[] } };
  const refSite = JSON.parse(s.reference.stdout.toString()) as { siteReplication: { nodeResults: { endpoint: string; tx: number; txTotalDuration: number; rx: number; rxTotalDuration: number; totalConn: number }[] } };
  assert.equal(report.siteReplication.servers[0], { endpoint: "https://site-b:9000", perf: { tx: refSite.siteReplication.nodeResults[0]?.tx, txTotalDuration: 1e10, rx: 10 * 2 ** 30, rxTotalDuration: 10.9e9, totalConn: 32 } });
  assert.equal(report.siteReplication.servers[2], { endpoint: "https://site-c:9000", perf: { tx: 0, txTotalDuration: 0, rx: 0, rxTotalDuration: 0, totalConn: 0 }, error: "peer <unreachable>" });
  // A server whose overhead is longer than the upload took: madmin's error, one line, exit 1; nothing saved.
  extraTime = 3.6e12;
  const late = await fx.mc(["support", "perf", "client", "minio"], { cwd: where });
  extraTime = 1;
  assert.is(late.code, 1);
  assert.is(late.stderr, "mc: <ERROR> Unable to run the performance test. unexpected spent time duration, mostly NTP errors on the server.\n");
  assert.equal((await readdir(where)).length, 1);
  const bare = await fx.mc(["support", "perf", "site-replication"], { cwd: where });
  assert.is(bare.code, 1);
});

T("inspect: the form POST to inspect-data with MinIO's support key, as madmin; the data saved as upstream names it; --legacy: GET, the one-time key printed once, a second run keeps the first file", async () => {
  const where = await mkdtemp(join(dir, "inspect-"));
  const r = await differential(fx, { op: "support-inspect", args: { volume: "photos", file: "a b/*/xl.meta", publicKey: supportKey }, mc: ["support", "inspect", "minio/photos/a b/*/xl.meta"], responder: answers, cwd: where });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.contentType]), [["POST", "/minio/admin/v3/inspect-data", "application/x-www-form-urlencoded"]]);
  assert.is(r.requests[0]?.body, `file=a+b%2F%2A%2Fxl.meta&public-key=${encodeURIComponent(supportKey)}&volume=photos`);
  assert.is(r.ours.stdout, "File data successfully downloaded as inspect-minio_photos_a_b___xl.meta.enc\n");
  const saved = await readFile(join(where, "inspect-minio_photos_a_b___xl.meta.enc"));
  const ref = JSON.parse(r.reference.stdout.toString()) as { key: string; size: number; sha256: string };
  assert.equal([saved.length, createHash("sha256").update(saved).digest("hex")], [ref.size, ref.sha256]);
  const legacy = await differential(fx, { op: "support-inspect", args: { volume: "photos", file: "x/xl.meta" }, mc: ["support", "inspect", "minio/photos/x/xl.meta", "--legacy", "--json"], responder: answers, cwd: where });
  assert.equal(legacy.requests.map((q) => [q.method, q.query]), [["GET", [["file", "x/xl.meta"], ["volume", "photos"]]]]);
  const lref = JSON.parse(legacy.reference.stdout.toString()) as { key: string; size: number; sha256: string };
  const [out] = jsonLines(legacy.ours.stdout) as { status: string; file: string; key: string }[];
  assert.is(out?.key.slice(8), lref.key);
  assert.match(out?.file ?? "", /^inspect-data\.[0-9a-f]{8}\.enc$/);
  assert.is(out?.key.slice(0, 8), out?.file.slice(13, 21));
  const again = await fx.mc(["support", "inspect", "minio/photos/x/xl.meta", "--legacy"], { cwd: where });
  assert.match(again.stdout, /^Encrypted file data successfully downloaded as inspect-data\.[0-9a-f]{8}\.enc\nDecryption key: [0-9a-f]{72}\n\nThe decryption key will ONLY be shown here\./);
  const files = (await readdir(where)).filter((f) => f.startsWith("inspect-data."));
  assert.is(files.length, 2, files.join(","));
  for (const f of files) assert.is(createHash("sha256").update(await readFile(join(where, f))).digest("hex"), lref.sha256);
});

T("upload: the file packed with the issue, comment and the cluster's deployment (admin info, as madmin's ServerInfo); nothing else sent; --enc and a bad issue refused", async () => {
  const where = await mkdtemp(join(dir, "upload-"));
  const log = join(dir, "trace é.log");
  await writeFile(log, "GET /photos 200\n".repeat(50));
  const r = await differential(fx, { op: "server-info", mc: ["support", "upload", "--issue", "10", "--comment", "here is <the> log", "minio", log], responder: answers, cwd: where });
  assert.equal(r.requests.map((q) => q.path), ["/minio/admin/v3/info"]);
  const [zip] = await readdir(where);
  assert.match(zip ?? "", /^minio-upload-issue10_\d{14}\.zip$/);
  assert.is(r.ours.stdout, `File prepared for SUBNET issue 10 as ${zip ?? ""}; attach it at https://subnet.min.io/issues/10\n`);
  assert.is(execFileSync("unzip", ["-p", join(where, zip ?? ""), "trace é.log"], { encoding: "utf8" }), "GET /photos 200\n".repeat(50));
  assert.equal(JSON.parse(execFileSync("unzip", ["-p", join(where, zip ?? ""), "upload.info"], { encoding: "utf8" })), { issue: 10, issueUrl: "https://subnet.min.io/issues/10", comment: "here is <the> log", deploymentId: "6faeded5-5cf3-4133-8a37-07c5d500207c", alias: "minio", file: "trace é.log" });
  fx.recorder.clear();
  const bads = [["support", "upload", "minio", log], ["support", "upload", "--issue", "0", "minio", log], ["support", "upload", "--issue", "3", "--enc", "minio", log], ["support", "upload", "--issue", "3", "minio", join(dir, "missing")]];
  for (const [args, bad] of await Promise.all(bads.map(async (args) => [args, await fx.mc(args, { cwd: where })] as const))) {
    assert.is(bad.code, 1, args.join(" "));
    assert.match(bad.stderr, /^mc: <ERROR> [^\n]+\n$/, args.join(" "));
  }
  assert.is(fx.recorder.requests.length, 0);
  assert.is((await readdir(where)).length, 1);
});

T("top drive|net|rpc: admin info then madmin's Metrics query for each (v3 types by their bits); upstream's tables from the last two samples; net/rpc --json print the records", async () => {
  const drive = await differential(fx, { op: "support-top-metrics", args: { kind: "drive", n: 10, interval: 1 }, mc: ["support", "top", "drive", "minio/"], responder: answers });
  assert.equal(drive.requests.map((q) => [q.path, q.query]), [["/minio/admin/v3/info", []], ["/minio/admin/v3/metrics", [["by-disk", "true"], ["disks", ""], ["hosts", ""], ["interval", "1s"], ["n", "10"], ["types", "2"]]]]);
  assert.is(drive.ours.stdout, "DRIVE \tUSED\tTPS\t   READ    \t  WRITE   \t DISCARD  \tAWAIT \tUTIL\n/data1\t 0% \t150\t10.00 MiB/s\t5.00 MiB/s\t0.00 MiB/s\t1.0 ms\t25.0%\n\n");
  const net = await differential(fx, { op: "support-top-metrics", args: { kind: "net", n: 0, interval: 1 }, mc: ["support", "top", "net", "minio"], responder: answers });
  assert.equal(net.requests[0]?.query, [["by-host", "true"], ["disks", ""], ["hosts", ""], ["interval", "1s"], ["n", "0"], ["types", "32"]]);
  assert.match(net.ours.stdout, /^    SERVER    \tINTERFACE\t RECEIVE \tTRANSMIT\n127\.0\.0\.1:9000\t  eth0   \t3\.0 MiB\/s\t1\.0 MiB\/s\n\n$/);
  const nj = await fx.mc(["support", "top", "net", "minio", "--json"]);
  assert.equal(jsonLines(nj.stdout), netStream.split("\n").map((l) => JSON.parse(l) as Record<string, unknown>));
  const rpc = await differential(fx, { op: "support-top-metrics", args: { kind: "rpc", n: 3, interval: 2, nodes: "" }, mc: ["support", "top", "rpc", "minio", "--n", "3", "--interval", "2"], responder: answers });
  assert.equal(rpc.requests[0]?.query, [["by-host", "true"], ["disks", ""], ["hosts", ""], ["interval", "2s"], ["n", "3"], ["types", "256"]]);
  assert.is(rpc.ours.stdout, "     SERVER      \tCONCTD\tPING \t PONG \tOUT.Q\tRECONNS\tSTR.IN\tSTR.OUT\tMSG.IN\tMSG.OUT\nTo 127.0.0.2:9000\t  1   \t1.5ms\t3s ago\t  2  \t   3   \t ->4  \t  5->  \t 600  \t  700\n\nSHOWING traffic TO hosts sorted by Host.\n\n");
  // --in: the records saved by --json replayed, the same view, no server asked.
  const saved = join(dir, "rpc.json");
  await writeFile(saved, `${rpcStream}\n${JSON.stringify({ hosts: [], aggregated: {} })}\n`);
  fx.recorder.clear();
  const replayed = await fx.mc(["support", "top", "rpc", "--in", saved]);
  assert.is(replayed.code, 0, replayed.stderr);
  assert.is(replayed.stdout, rpc.ours.stdout);
  assert.is(fx.recorder.requests.length, 0);
  // A stream that ends before its final record is madmin's unexpected EOF: one line, exit 1.
  fx.recorder.respond((req) => (req.path.endsWith("/metrics") ? { body: driveMetrics.split("\n").slice(0, 2).join("\n") } : answers(req)));
  const cut = await fx.mc(["support", "top", "drive", "minio"]);
  assert.is(cut.code, 1);
  assert.match(cut.stderr, /^mc: <ERROR> Unable to fetch top drive events\. unexpected EOF\.\n$/);
});

async function startStream(fx_: AdminFixture, args: readonly string[]): Promise<{ child: ReturnType<AdminFixture["spawn"]>; out: () => string; err: () => string; exit: Promise<number | null> }> {
  const child = fx_.spawn(args);
  let out = "";
  let err = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (err += c.toString()));
  child.stdin?.end();
  // A stream that never ends would hang the suite: killed (and failing) after 20 s.
  const hang = setTimeout(() => child.kill("SIGKILL"), 20000);
  const exit = new Promise<number | null>((resolve) => child.once("close", (code) => (clearTimeout(hang), resolve(code))));
  return { child, out: () => out, err: () => err, exit };
}

T("top api: madmin's S3 trace query; per-call statistics refreshed as calls come; Ctrl-C ends it with 130 and nothing on stderr, a closed pipe with 141", async () => {
  fx.recorder.respond(answers);
  fx.recorder.clear();
  const ref = await runDriver("support-top-api", { endpoint: fx.recorder.host, access: keys.access, secret: keys.secret, args: { errors: true, max: 4 } });
  assert.is(ref.code, 0, ref.stderr);
  assert.equal(JSON.parse(ref.stdout.toString()), ["s3.PutObject", "s3.GetObject", "s3.PutObject", "s3.GetObject"]);
  const refReq = await normalize(fx.recorder.requests[0] as Recorded, false);
  fx.recorder.clear();
  const s = await startStream(fx, ["support", "top", "api", "minio/", "--errors"]);
  await waitFor(() => s.out().includes("s3.PutObject"), { what: "the first view", timeoutMs: 15000 });
  assert.equal(await normalize(fx.recorder.requests[0] as Recorded, false), refReq);
  assert.match(s.out(), /^CALL        \tCOUNT\tRPM +\tAVG TIME\tMIN TIME\tMAX TIME\tAVG TTFB\tMAX TTFB\tAVG SIZE\tERRORS\n/);
  assert.match(s.out(), /\ns3\.PutObject\t2 +\t[^\t]+\t6ms +\t4ms +\t8ms +\t3ms +\t4ms +\t2\.0 KiB +\t1\n/);
  s.child.kill("SIGINT");
  assert.is(await s.exit, 130);
  assert.is(s.err(), "");
  // --name filters by call; the reader goes away: the next refresh ends mc with 141.
  const p = await startStream(fx, ["support", "top", "api", "minio/", "--name", "GetObject", "--json"]);
  await waitFor(() => p.out().includes("\n"), { what: "the first record", timeoutMs: 15000 });
  const first = JSON.parse(p.out().split("\n")[0] ?? "") as { calls: { name: string; count: number; errors: number }[] };
  assert.equal(first.calls.map((c) => [c.name, c.errors]), [["s3.GetObject", 1]]);
  p.child.stdout?.destroy();
  assert.is(await p.exit, 141);
  assert.is(p.err(), "");
});

T("top net (endless): Ctrl-C during the stream is 130, the last view already printed", async () => {
  fx.recorder.respond((req) => (req.path.endsWith("/metrics") ? { hold: true, body: netStream.split("\n")[0] ?? "" } : answers(req)));
  const s = await startStream(fx, ["support", "top", "net", "minio"]);
  await waitFor(() => s.out().includes("eth0"), { what: "the first view", timeoutMs: 15000 });
  s.child.kill("SIGINT");
  assert.is(await s.exit, 130);
  assert.is(s.err(), "");
});

T.run();
