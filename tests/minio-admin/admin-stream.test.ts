// mc admin trace, admin logs and admin scanner status: the streaming admin
// calls (issue 25). The first request matches the reference driver's
// (madmin-go v2.0.7 ServiceTrace, GetLogs, Metrics); records, decoded by the
// library on the driver's side, are printed in upstream's shapes; a recorded
// stream is decoded as it arrives (a record split across chunks is printed
// once whole, not before); Ctrl-C ends a follower with 130 and a closed
// stdout with 141, both silently.
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { toTraceInfo } from "../../cli/src/minio-admin/trace-format.js";
import { waitFor } from "../harness/wait-for.js";
import { cleanEnv, jsonLines, mcBin, runMc, spawnMc } from "../mc/mc-runner.js";
import { cannedAnswer } from "./go-driver.js";
import { keys, normalize, startAdminFixture, type Normalized } from "./fixture.js";
import type { Answer, Recorded } from "./recorder.js";

const fx = await startAdminFixture();
// The followers spawned here get a config dir of their own, never the user's ~/.mc.
const configDir = await mkdtemp(join(tmpdir(), "mc-admin-stream-"));
const own = (args: readonly string[]): string[] => ["-C", configDir, ...args];
// Written once here, so that no follower prints the first-run notice.
await runMc(own(["alias", "list", "--json"]));
const env = { TZ: "UTC" };
const hostEnv = { ...env, MC_HOST_minio: `http://${keys.access}:${encodeURIComponent(keys.secret)}@${fx.recorder.host}` };
const [traceCanned, scannerCanned, bucketScan] = await Promise.all([cannedAnswer("trace-records"), cannedAnswer("scanner-metrics"), cannedAnswer("bucket-scan-info")]);
const traces = JSON.parse(traceCanned.toString()) as Record<string, unknown>[];
// A record of a server before July 2022 (no type; request/response/stats at the top), which madmin converts.
const legacy = { nodename: "old:9000", funcname: "s3.ListBuckets", time: "2024-05-06T07:08:13Z", request: { time: "2024-05-06T07:08:13Z", proto: "HTTP/1.1", method: "GET", path: "/", client: "10.1.1.1" }, response: { time: "2024-05-06T07:08:13.5Z", statuscode: 200 }, stats: { inputbytes: 0, outputbytes: 42, latency: 500000000, timetofirstbyte: 1000 } };
const traceStream = [...traces, legacy].map((r) => `${JSON.stringify(r)}\n`).join("");
const logs = [
  { deploymentid: "6faeded5", level: "ERROR", errKind: "ALL", time: "2024-05-06T07:08:09.123456789Z", api: { name: "PutObject", args: { bucket: "photos", object: "a b.jpg" } }, remotehost: "10.0.0.7", host: "127.0.0.1:9000", requestID: "17D2F", userAgent: "mc/test", error: { message: "disk full", source: ["cmd/xl.go:10", "cmd/api.go:20"], variables: { disk: "/data1" } }, node: "127.0.0.1:9000" },
  { level: "INFO", errKind: "", time: "", ConsoleMsg: "\nAPI: SYSTEM()\nStatus: 1 Online\n", node: "127.0.0.1:9000" },
];
const logStream = logs.map((l) => `${JSON.stringify(l)}\n`).join("");

const answers = (req: Recorded): Answer => {
  const p = req.path.replace("/minio/admin/v3", "");
  if (p === "/trace") return { body: traceStream };
  if (p === "/log") return { body: logStream };
  if (p === "/metrics") return { body: `${scannerCanned.toString().trim()}\n` };
  if (p === "/scanner/status/photos") return { body: bucketScan };
  return {};
};

/** The reference's first request, then ours: madmin asks again when a stream ends, so only the first is compared. */
async function firstRequests(op: string, args: Record<string, unknown>, mcArgs: readonly string[], mask: (n: Normalized) => Normalized = (n) => n): Promise<{ reference: string; ours: { code: number | null; stdout: string; stderr: string }; request: Normalized }> {
  fx.recorder.respond(answers);
  fx.recorder.clear();
  const ref = await fx.driver(op, args);
  assert.is(ref.code, 0, ref.stderr);
  const refFirst = fx.recorder.requests[0];
  assert.ok(refFirst, `the reference ${op} sent nothing`);
  const refReq = mask(await normalize(refFirst, false));
  fx.recorder.clear();
  const ours = await fx.mc(mcArgs, { env });
  const ourFirst = fx.recorder.requests[0];
  assert.ok(ourFirst, `mc ${mcArgs.join(" ")} sent nothing: ${ours.stderr}`);
  const ourReq = mask(await normalize(ourFirst, false));
  assert.equal(ourReq, refReq, `mc ${mcArgs.join(" ")} sent another request than the reference's ${op}`);
  return { reference: ref.stdout.toString(), ours, request: ourReq };
}

/** A streamed answer the test feeds piece by piece. */
function feed(): { chunks: AsyncIterable<string>; push(s: string): void } {
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  return {
    push(s) {
      queue.push(s);
      wake?.();
    },
    chunks: (async function* () {
      for (;;) {
        while (queue.length > 0) yield queue.shift() ?? "";
        await new Promise<void>((r) => (wake = r));
      }
    })(),
  };
}

/** `mc … | head -n 1` in a shell, while `answer` streams: mc's status (141) and what head printed. */
async function closedPipe(args: readonly string[]): Promise<{ status: string; first: string }> {
  const sh = spawn("bash", ["-c", `"${process.execPath}" "${mcBin}" ${own(args).map((a) => `'${a}'`).join(" ")} | head -n 1; echo "status \${PIPESTATUS[0]}" >&2`], { env: cleanEnv(hostEnv) });
  let err = "";
  let first = "";
  sh.stderr.on("data", (c: Buffer) => (err += c.toString()));
  sh.stdout.on("data", (c: Buffer) => (first += c.toString()));
  await new Promise<void>((resolve) => sh.once("close", () => resolve()));
  return { status: err, first };
}

/** Records forever, one every 20 ms, until the reader hangs up. */
const endless = (record: string): AsyncIterable<string> =>
  (async function* () {
    for (let i = 0; i < 1500; i++) {
      yield record;
      await sleep(20);
    }
  })();

/** The records of a follower's JSON output, without the error that ends it. */
const records = (stdout: string): Record<string, unknown>[] => jsonLines(stdout).filter((r) => r["status"] !== "error");

const T = suite("mc admin trace|logs|scanner status (streams, differential against the reference driver)");
T.after(async () => {
  await fx.stop();
  await rm(configDir, { recursive: true, force: true });
});

T("trace: the same GET /trace query as madmin's ServiceTrace for each call-type choice; a server ending the stream is an error", async () => {
  const s3 = await firstRequests("trace", { opts: { S3: true } }, ["admin", "trace", "minio"]);
  assert.equal(s3.request.query, [["batch-replication", "false"], ["bootstrap", "false"], ["decommission", "false"], ["err", "false"], ["healing", "false"], ["internal", "false"], ["os", "false"], ["rebalance", "false"], ["replication-resync", "false"], ["s3", "true"], ["scanner", "false"], ["storage", "false"], ["threshold", "0s"]]);
  assert.is(s3.ours.code, 1);
  assert.ok(s3.ours.stderr.endsWith("mc: <ERROR> Unable to listen to http trace. EOF.\n"), s3.ours.stderr);
  const picked = await firstRequests("trace", { opts: { Storage: true, OS: true, Healing: true, OnlyErrors: true }, threshold: "5ms" }, ["admin", "trace", "minio", "--call", "storage,os", "--call", "heal", "-e", "--response-duration", "5ms"]);
  assert.equal(picked.request.query.filter(([, v]) => v !== "false"), [["err", "true"], ["healing", "true"], ["os", "true"], ["storage", "true"], ["threshold", "5ms"]]);
  // --all also asks for current upstream's ilm, ftp, batch-keyrotation and batch-expire (madmin v3), which v2.0.7 does not know: compared without them.
  const v3Only = ["batch-expire", "batch-keyrotation", "ftp", "ilm"];
  const all = await firstRequests("trace", { opts: { S3: true, Internal: true, Storage: true, OS: true, Scanner: true, Decommission: true, Healing: true, BatchReplication: true, Rebalance: true, ReplicationResync: true, Bootstrap: true } }, ["admin", "trace", "-a", "minio"], (n) => ({ ...n, query: n.query.filter(([k]) => !v3Only.includes(k)) }));
  assert.ok(all.request.query.every(([k, v]) => k === "threshold" || k === "err" || v === "true"));
  fx.recorder.clear();
  await fx.mc(["admin", "trace", "-a", "minio"]);
  assert.equal(v3Only.map((k) => new URLSearchParams(fx.recorder.requests[0]?.query).getAll(k)), [["true"], ["true"], ["true"], ["true"]]);
  // Records as the library decoded them: ours decode the same (the legacy one converted as madmin converts it).
  const decoded = s3.reference.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  const ourDecoding = [...traces, legacy].map((r) => toTraceInfo(r));
  assert.equal(ourDecoding.map((t) => [t.type, t.funcname, t.path, t.dur, t.http?.response.statuscode ?? 0]), decoded.map((t) => [t["type"], t["funcname"], t["path"], t["dur"], (t["http"] as { response: { statuscode?: number } } | undefined)?.response.statuscode ?? 0]));
  for (const c of [["admin", "trace", "minio", "--call", "nope"], ["admin", "trace", "minio", "-a", "--call", "s3"]]) {
    fx.recorder.clear();
    const r = await fx.mc(c);
    assert.is(r.code, 1);
    assert.ok(r.stderr.startsWith("mc: <ERROR> "), r.stderr);
    assert.is(fx.recorder.requests.length, 0);
  }
});

T("trace: upstream's short and verbose lines and JSON; client-side filters (status code, method, path, node, funcname, header, size)", async () => {
  fx.recorder.respond(answers);
  const short = await fx.mc(["admin", "trace", "minio", "-a"], { env });
  assert.equal(short.stdout.split("\n").slice(0, 5), [
    "2024-05-06T07:08:09.123 [200 OK] s3.GetObject 127.0.0.1:9000/photos/a b.jpg?versionId=v1  127.0.0.1        1.235ms      ⇣  456.789µs  ↑ 0 B ↓ 1.5 KiB",
    "2024-05-06T07:08:10.123 [503 Service Unavailable] s3.PutObject 127.0.0.1:9000/photos/big.bin 10.0.0.7         2s           ⇣  0s         ↑ 5.0 MiB ↓ 120 B",
    "2024-05-06T07:08:11.123 [STORAGE] storage.ReadFile 127.0.0.1:9000 /data1/photos/a b.jpg/xl.meta err='file not found' 850µs",
    "2024-05-06T07:08:12.123 [BOOTSTRAP] bootstrap.Init 127.0.0.1:9000 Server ready",
    "2024-05-06T07:08:13.000 [200 OK] s3.ListBuckets old:9000/ 10.1.1.1         500ms        ⇣  1µs       ↑ 0 B ↓ 42 B",
  ]);
  const sj = records((await fx.mc(["admin", "trace", "minio", "--json"], { env })).stdout);
  assert.equal(sj[0], { status: "success", host: "127.0.0.1:9000", time: "2024-05-06T07:08:09.123456789Z", client: "127.0.0.1", callStats: { rx: 0, tx: 1536, duration: 1234567, timeToFirstByte: 456789 }, duration: 1234567, timeToFirstByte: 0, api: "s3.GetObject", path: "/photos/a b.jpg", query: "versionId=v1", statusCode: 200, statusMsg: "OK", type: "S3", error: "", extra: null });
  const verbose = await fx.mc(["admin", "trace", "minio", "-v", "--status-code", "503"], { env });
  assert.is(verbose.stdout, "127.0.0.1:9000 [REQUEST s3.PutObject] [2024-05-06T07:08:10.123] [Client IP: 10.0.0.7]\n127.0.0.1:9000 PUT /photos/big.bin\n127.0.0.1:9000 Proto: HTTP/1.1\n127.0.0.1:9000 Host: 127.0.0.1:9000\n127.0.0.1:9000 <stream>\n127.0.0.1:9000 [RESPONSE] [2024-05-06T07:08:12.123] [ Duration 2s TTFB 0s ↑ 5.0 MiB  ↓ 120 B ]\n127.0.0.1:9000 503 Service Unavailable\n127.0.0.1:9000 <Error><Code>SlowDown</Code></Error>\n127.0.0.1:9000 \n");
  const vj = records((await fx.mc(["admin", "trace", "minio", "-v", "--json", "--method", "GET", "--path", "photos/*"], { env })).stdout);
  assert.equal(vj, [{ type: "S3", host: "127.0.0.1:9000", api: "s3.GetObject", time: "2024-05-06T07:08:09.123456789Z", duration: 1234567, path: "/photos/a b.jpg", request: { time: "2024-05-06T07:08:09.123456789Z", proto: "HTTP/1.1", method: "GET", path: "/photos/a b.jpg", rawQuery: "versionId=v1", headers: { Host: "127.0.0.1:9000", "User-Agent": "mc/test" } }, response: { time: "2024-05-06T07:08:09.124691356Z", headers: { "Content-Type": "image/jpeg" }, statusCode: 200 }, callStats: { rx: 0, tx: 1536, duration: 1234567, timeToFirstByte: 456789 } }]);
  const filtered = async (extra: readonly string[]): Promise<string[]> => records((await fx.mc(["admin", "trace", "minio", "-a", "--json", ...extra], { env })).stdout).map((r) => String(r["api"]));
  assert.equal(await filtered(["--node", "old:*"]), ["s3.ListBuckets"]);
  assert.equal(await filtered(["--funcname", "storage.*"]), ["storage.ReadFile"]);
  // Upstream filters headers of HTTP calls only: the others pass.
  assert.equal(await filtered(["--request-header", "User-Agent: mc/*"]), ["s3.GetObject", "storage.ReadFile", "bootstrap.Init"]);
  assert.equal(await filtered(["--filter-request", "--filter-size", "1MiB"]), ["s3.PutObject"]);
});

T("trace: a record split across chunks is printed once whole; Ctrl-C ends the follower with 130, nothing on stderr", async () => {
  const f = feed();
  const [one, two, three] = [traces[0], traces[2], traces[3]].map((r) => `${JSON.stringify(r)}\n`);
  // The first record and half the second in one chunk: the first line printed means the chunk was read, and no half line came with it.
  f.push(`${one ?? ""}${(two ?? "").slice(0, 40)}`);
  fx.recorder.respond(() => ({ chunks: f.chunks }));
  const child = spawnMc(own(["admin", "trace", "minio", "-a"]), { env: hostEnv });
  let out = "";
  let err = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (err += c.toString()));
  const closed = new Promise<number | null>((resolve) => child.once("close", resolve));
  await waitFor(() => out.includes("s3.GetObject"), { what: "the first record", timeoutMs: 15000 });
  assert.not.ok(out.includes("storage.ReadFile"), "half a record is not printed");
  f.push(`${(two ?? "").slice(40)}${three ?? ""}`);
  await waitFor(() => out.includes("bootstrap.Init"), { what: "the rest of the stream", timeoutMs: 15000 });
  // Exactly the three records, each once and whole: a half record printed early would show as a line more (or an error).
  assert.equal(out.trimEnd().split("\n").map((l) => l.split(" ").find((w) => /^[a-z0-9]+\.[A-Za-z]+$/.test(w))), ["s3.GetObject", "storage.ReadFile", "bootstrap.Init"]);
  child.kill("SIGINT");
  assert.is(await closed, 130);
  assert.is(err, "");
});

T("trace and logs: `| head -n 1` ends mc at its next write with 141, silently", async () => {
  fx.recorder.respond((req) => ({ chunks: endless(req.path.endsWith("/trace") ? `${JSON.stringify(traces[0])}\n` : `${JSON.stringify(logs[0])}\n`) }));
  const [t, l] = await Promise.all([closedPipe(["admin", "trace", "minio", "--json"]), closedPipe(["admin", "logs", "minio", "--json"])]);
  assert.is(t.status, "status 141\n");
  assert.is(jsonLines(t.first)[0]?.["api"], "s3.GetObject");
  assert.is(l.status, "status 141\n");
  assert.is(jsonLines(l.first)[0]?.["requestID"], "17D2F");
});

/** A follower run to its first records, then Ctrl-C: its status, output, and the first request it sent. */
async function follow(args: readonly string[], until: (out: string) => boolean): Promise<{ code: number | null; out: string; err: string; first: Recorded | undefined }> {
  fx.recorder.clear();
  const child = spawnMc(own(args), { env: hostEnv });
  let out = "";
  let err = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (err += c.toString()));
  const closed = new Promise<number | null>((resolve) => child.once("close", resolve));
  await waitFor(() => until(out), { what: `the output of mc ${args.join(" ")}`, timeoutMs: 15000 });
  child.kill("SIGINT");
  return { code: await closed, out, err, first: fx.recorder.requests[0] };
}

T("logs: GET /log?node=&limit=&logType= as madmin's GetLogs; records as the library decodes them, in upstream's text; Ctrl-C is 130", async () => {
  fx.recorder.respond(answers);
  fx.recorder.clear();
  const ref = await fx.driver("logs", { node: "node1", limit: 5, logType: "application", count: 2 });
  assert.is(ref.code, 0, ref.stderr);
  const refFirst = fx.recorder.requests[0];
  assert.ok(refFirst);
  const decoded = ref.stdout.toString().trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  // Held open after the records: a follower that waits for more.
  fx.recorder.respond(() => ({ chunks: (async function* () {
    yield logStream;
    await sleep(60_000);
  })() }));
  const j = await follow(["admin", "logs", "minio", "node1", "--last", "5", "--type", "Application", "--json"], (o) => o.split("\n").length > 2);
  assert.ok(j.first);
  assert.equal(await normalize(j.first, false), await normalize(refFirst, false));
  assert.equal((await normalize(j.first, false)).query, [["limit", "5"], ["logType", "application"], ["node", "node1"]]);
  // Ours: the library's record with status first and the node dropped (the user named it).
  assert.equal(jsonLines(j.out), decoded.map((d) => ({ status: "success", ...d, node: "" })));
  assert.is(j.code, 130);
  const t = await follow(["admin", "logs", "minio"], (o) => o.includes("Status: 1 Online"));
  assert.ok(t.first);
  assert.equal((await normalize(t.first, false)).query, [["limit", "0"], ["logType", "all"], ["node", ""]]);
  assert.is(t.code, 130);
  assert.is(t.err, "");
  const n = "127.0.0.1:9000 ";
  assert.is(t.out, `${n} API: PutObject(bucket=photos, object=a b.jpg)\n${n} Time: 07:08:09 UTC 05/06/2024\n${n} DeploymentID: 6faeded5\n${n} RequestID: 17D2F\n${n} RemoteHost: 10.0.0.7\n${n} UserAgent: mc/test\n${n} Error: disk full\n${n} disk=/data1\n${n}        2: cmd/xl.go:10\n${n}        1: cmd/api.go:20\n\n${n}\n${n} API: SYSTEM()\nStatus: 1 Online\n\n`);
  for (const bad of [["--last", "0"], ["--type", "kernel"]]) {
    const b = await fx.mc(["admin", "logs", "minio", ...bad]);
    assert.is(b.code, 1, bad.join(" "));
  }
});

T("scanner status: GET /metrics?types=1… as madmin's Metrics; samples until the final one, JSON as sent, text as upstream's view", async () => {
  const r = await firstRequests("scanner-status", { n: 2, interval: 5, nodes: "a:9000,b:9000" }, ["admin", "scanner", "status", "minio", "-n", "2", "--interval", "5", "--nodes", "a:9000,b:9000", "--json"]);
  assert.equal(r.request.query, [["disks", ""], ["hosts", "a:9000,b:9000"], ["interval", "5s"], ["n", "2"], ["types", "1"]]);
  assert.is(r.ours.code, 0, r.ours.stderr);
  assert.equal(jsonLines(r.ours.stdout), [JSON.parse(r.reference) as Record<string, unknown>]);
  const text = await fx.mc(["admin", "scanner", "status", "minio"], { env });
  assert.is(text.code, 0, text.stderr);
  assert.is(text.stdout, "Scanner Activity:\n\nOverall Statistics\n------------------\nEst. full scan time:   0d16h0m; Estimated 45.00/month\nCurrent cycle:         7; Started: 2024-05-06 07:08:09.123456789 +0000 UTC\nActive drives: 2\n\nLast Minute Statistics\n----------------------\nObjects Scanned:       120 objects; Avg: 250µs; Rate: 172800/day\nVersions Scanned:      0 versions; Avg: 0ms\nVersions Heal Checked: 0 versions; Avg: 0ms\nRead Metadata:         10 objects; Avg: 3ms, Size: 4096 bytes/obj\nILM checks:            0 versions; Avg: 0ms\nCheck Replication:     0 versions; Avg: 0ms\nVerify Deleted:        0 folders; Avg: 0ms\nYield:                 6ms total; Avg: 50µs/obj\n------------------------------------- Currently Scanning Paths --------------------------------------\n/data1/photos\n/data2/photos\n");
});

/** upstream's trace statistics of the canned stream (every call once; span: the first call's end to the last one's, 4.4 s). */
const statsTable = (rates: boolean): string =>
  [
    "Duration: 4s",
    ...(rates ? ["RX Rate:↑ 69 MiB/m", "TX Rate:↓ 23 KiB/m"] : []),
    "RPM    :  68.6",
    "-------------",
    "Call              Count      RPM   Avg Time  Min Time  Max Time  Avg TTFB  Max TTFB  Avg Size     Rate /min   Errors",
    "bootstrap.Init    1 (20.0%)  13.7  0s        0s        0s        -         -         -            -           0",
    "s3.GetObject      1 (20.0%)  13.7  1.2ms     1.2ms     1.2ms     457µs     457µs     ↓1.5K        ↓21K        0",
    "s3.ListBuckets    1 (20.0%)  13.7  500ms     500ms     500ms     1µs       1µs       ↓42B         ↓575B       0",
    "s3.PutObject      1 (20.0%)  13.7  2s        2s        2s        -         -         ↑5.0M ↓120B  ↑69M ↓1.6K  0",
    "storage.ReadFile  1 (20.0%)  13.7  850µs     850µs     850µs     -         -         -            -           1",
    "",
  ].join("\n");

T("trace --stats: the same GET /trace as madmin's ServiceTrace; piped, upstream's statistics once the stream ends (then its EOF), --json the stats; --in replays saved --json records, .zst too, without a server; Ctrl-C prints the table, 130", async () => {
  const st = await firstRequests("trace", { opts: { S3: true } }, ["admin", "trace", "--stats", "minio"]);
  assert.is(st.request.query.find(([k]) => k === "s3")?.[1], "true");
  assert.is(st.ours.code, 1);
  assert.is(st.ours.stderr, "mc: <ERROR> Unable to fetch http trace statistics. EOF.\n");
  assert.is(st.ours.stdout, `${statsTable(true)}\n`);
  // -a: no rate lines; --stats-n 2: the two busiest, the last marked.
  const all = await fx.mc(["admin", "trace", "--stats", "-a", "--stats-n", "2", "minio"], { env });
  assert.equal(all.stdout.split("\n").slice(0, 6), ["Duration: 4s", "RPM    :  68.6", "-------------", "Call            Count      RPM   Avg Time  Min Time  Max Time  Avg TTFB  Max TTFB  Avg Size  Rate /min  Errors", "bootstrap.Init  1 (20.0%)  13.7  0s        0s        0s        -         -         -         -          0", "↓ s3.GetObject  1 (20.0%)  13.7  1.2ms     1.2ms     1.2ms     457µs     457µs     ↓1.5K     ↓21K       0"]);
  const sj = jsonLines((await fx.mc(["admin", "trace", "--stats", "minio", "--json"], { env })).stdout);
  const calls = (sj[0] as { calls: Record<string, Record<string, unknown>> }).calls;
  assert.equal(calls["s3.PutObject"], { Name: "s3.PutObject", count: 1, duration: 2e9, callStatsCount: 1, callStats: { rx: 5 << 20, tx: 120, duration: 0, timeToFirstByte: 0 }, maxDuration: 2e9, minDuration: 2e9, size: 0 });
  assert.equal([sj[0]?.["Oldest"], sj[0]?.["Latest"]], ["2024-05-06T07:08:09.124691356Z", "2024-05-06T07:08:13.5Z"]);
  // Replayed from what `admin trace --json` printed (bootstrap skipped): no alias, nothing sent.
  const saved = join(configDir, "trace.json");
  await writeFile(saved, records((await fx.mc(["admin", "trace", "-a", "minio", "--json"], { env })).stdout).map((r) => `${JSON.stringify(r)}\n`).join("") + "not json\n");
  execFileSync("zstd", ["-q", "-f", saved, "-o", `${saved}.zst`]);
  fx.recorder.clear();
  const [plain, zst] = await Promise.all([fx.mc(["admin", "trace", "--in", saved], { env }), fx.mc(["admin", "trace", "--in", `${saved}.zst`, "--funcname", "s3.*"], { env })]);
  assert.is(plain.code, 0, plain.stderr);
  assert.equal(plain.stdout.split("\n").slice(0, 4), ["Duration: 4s", "RPM    :  54.9", "-------------", "Call              Count      RPM   Avg Time  Min Time  Max Time  Avg Size  Rate /min  Errors"]);
  assert.ok(plain.stdout.includes("\nstorage.ReadFile  1 (25.0%)  13.7  850µs     850µs     850µs     -         -          1\n"), plain.stdout);
  assert.not.ok(plain.stdout.includes("bootstrap"));
  assert.equal(zst.stdout.split("\n").slice(4, 7).map((l) => l.split(" ")[0]), ["s3.GetObject", "s3.ListBuckets", "s3.PutObject"]);
  assert.is(fx.recorder.requests.length, 0);
  const missing = await fx.mc(["admin", "trace", "--in", join(configDir, "nope.json")]);
  assert.equal([missing.code, missing.stderr.startsWith("mc: <ERROR> Unable to open input. ")], [1, true]);
  // Ctrl-C while the trace goes on: the table so far, then 130.
  fx.recorder.respond(() => ({ hold: true, body: `${JSON.stringify(traces[0])}\n` }));
  const c = await follow(["admin", "trace", "--stats", "minio"], () => fx.recorder.requests.length > 0);
  assert.is(c.code, 130);
  assert.match(c.out, /^Duration: 0s\n/);
  assert.is(c.err, "");
});

T("scanner trace: madmin's trace query for scanner calls only; scanner status --bucket: madmin v3's BucketScanInfo, upstream's table and JSON; --in replays saved samples without a server", async () => {
  const t = await firstRequests("trace", { opts: { Scanner: true } }, ["admin", "scanner", "trace", "minio", "--funcname", "storage.*"]);
  assert.equal(t.request.query.filter(([, v]) => v !== "false"), [["scanner", "true"], ["threshold", "0s"]]);
  assert.is(t.ours.stdout.split("\n")[0], "2024-05-06T07:08:11.123 [STORAGE] storage.ReadFile 127.0.0.1:9000 /data1/photos/a b.jpg/xl.meta err='file not found' 850µs");
  const b = await firstRequests("scanner-bucket", { bucket: "photos" }, ["admin", "scanner", "status", "minio", "--bucket", "photos"]);
  assert.equal([b.request.method, b.request.path, b.request.query], ["GET", "/minio/admin/v3/scanner/status/photos", []]);
  assert.is(b.ours.code, 0, b.ours.stderr);
  const row = (cells: string[]): string => cells.map((c, i) => c.padEnd([5, 5, 20][i] ?? 0)).join(" | ");
  const lines = b.ours.stdout.split("\n");
  assert.equal(lines.slice(0, 2), ["", row(["Pool", "Set", "Last Update"])]);
  assert.match(lines[2] ?? "", new RegExp(`^${row(["1", "2", ""]).trimEnd().replace(/\|/g, "\\|")} \\d+ (years?|months?) ago +$`));
  assert.match(lines[3] ?? "", /^1 {5}\| 1 {5}\| \d+ (years?|months?) ago +$/);
  assert.match(lines.slice(4).join("\n"), /^\nFull bucket scan:  \d+ (years?|months?) ago \(took 0d13h0m\)\n\n$/);
  const bj = await fx.mc(["admin", "scanner", "status", "minio", "--bucket", "photos", "--json"]);
  assert.equal(jsonLines(bj.stdout), [{ status: "success", stats: (JSON.parse(b.reference) as unknown[]) }] as unknown as Record<string, unknown>[]);
  // Two samples saved by --json, replayed: both views, nothing sent.
  const saved = join(configDir, "scanner.json");
  const sample = scannerCanned.toString().trim();
  await writeFile(saved, `${sample}\n{"partial": \n${sample}\n`);
  fx.recorder.clear();
  const r = await fx.mc(["admin", "scanner", "status", "--in", saved, "--max-paths", "1"], { env });
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout.split("Scanner Activity:").length, 3);
  assert.ok(r.stdout.endsWith("Currently Scanning Paths --------------------------------------\n/data1/photos\n"), r.stdout);
  assert.is(fx.recorder.requests.length, 0);
});

T.run();
