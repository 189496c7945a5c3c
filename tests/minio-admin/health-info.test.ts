// mc ready, ping --distributed/--node and admin info on MinIO's admin and
// health APIs, compared request by request with madmin-go doing the same
// (issue 24); canned answers from the library's types printed in real mc's shapes.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { freePort } from "../harness/free-port.js";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer } from "./go-driver.js";
import { differential, startAdminFixture } from "./fixture.js";
import type { Answer, Recorded } from "./recorder.js";

const fx = await startAdminFixture();
const closedPort = await freePort(); // a second node that is down: nothing listens there
const info = JSON.parse((await cannedAnswer("server-info")).toString()) as { servers: { endpoint: string }[] };
info.servers[0] = { ...info.servers[0], endpoint: fx.recorder.host } as { endpoint: string };
info.servers.push({ ...info.servers[0], endpoint: `127.0.0.1:${closedPort}` } as { endpoint: string });
const infoBody = JSON.stringify(info);

const health = (status: number) => (req: Recorded): Answer =>
  req.path.startsWith("/minio/health/cluster") ? { status, headers: { "x-minio-write-quorum": "3", "x-minio-healing-drives": "1" } } : {};
const minio = (req: Recorded): Answer =>
  req.path === "/minio/admin/v3/info" ? { headers: { "content-type": "application/json" }, body: infoBody } : req.path === "/minio/health/live" ? {} : { status: 404 };

const T = suite("ready, ping --distributed/--node, admin info (differential against madmin-go)");
T.after(() => fx.stop());

T("ready: the same unsigned GET /minio/health/cluster as madmin Healthy; real mc's text and JSON", async () => {
  const r = await differential(fx, { op: "anon-healthy", mc: ["ready", "minio"], responder: health(200) });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.query, q.signedHeaders]), [["GET", "/minio/health/cluster", [], []]]);
  assert.equal(JSON.parse(r.reference.stdout.toString()), { Healthy: true, MaintenanceMode: false, WriteQuorum: 3, HealingDrives: 1 });
  assert.is(r.ours.stdout, "The cluster is ready\n");
  const j = await fx.mc(["ready", "minio", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ healthy: true, maintenanceMode: false, writeQuorum: 3, healingDrives: 1 }]);
});

T("ready --maintenance and --cluster-read: the query and path madmin sends", async () => {
  const m = await differential(fx, { op: "anon-healthy", args: { maintenance: true }, mc: ["ready", "minio", "--maintenance"], responder: health(200) });
  assert.equal(m.requests[0]?.query, [["maintenance", "true"]]);
  const c = await differential(fx, { op: "anon-healthy", args: { clusterRead: true }, mc: ["ready", "minio", "--cluster-read"], responder: health(200) });
  assert.is(c.requests[0]?.path, "/minio/health/cluster/read");
});

T("ready on a cluster in maintenance: asks again every 5 s, printing each answer, until ready", async () => {
  let calls = 0;
  fx.recorder.respond((req) => health(++calls < 2 ? 412 : 200)(req));
  const r = await fx.mc(["ready", "minio", "--json"]);
  assert.is(r.code, 0, r.stderr);
  assert.equal(jsonLines(r.stdout), [{ healthy: true, maintenanceMode: false, writeQuorum: 3, healingDrives: 1 }]);
  assert.is(calls, 2);
});

T("ping --distributed: GET /minio/admin/v3/info signed as madmin ServerInfo, then /minio/health/live on each node", async () => {
  const r = await differential(fx, { op: "ping-nodes", mc: ["ping", "--distributed", "-c", "1", "minio"], responder: minio });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path} ${q.signedHeaders.join(";")}`), ["GET /minio/admin/v3/info host;x-amz-content-sha256;x-amz-date", "GET /minio/health/live "]);
  const ref = r.reference.stdout.toString().trim().split("\n").map((l) => JSON.parse(l) as { host: string; online: boolean }).sort((a, b) => (a.host < b.host ? -1 : 1));
  const lines = r.ours.stdout.trimEnd().split("\n").sort();
  assert.is(lines.length, ref.length);
  for (const [i, node] of ref.entries()) assert.match(lines[i] ?? "", new RegExp(`^  1: http://${node.host.replace(/\./g, "\\.")} +status=${node.online ? "ok " : "failed "} time=\\d+\\.\\d\\d(ms|s) *$`));
  const j = jsonLines((await fx.mc(["ping", "-a", "-c", "1", "--json", "minio"])).stdout);
  const servers = (j[0]?.["servers"] ?? []) as { endpoint: { Host: string }; status: string; error?: string }[];
  assert.is(j[0]?.["counter"], "  1");
  assert.equal(servers.map((s) => [s.endpoint.Host, s.status]).sort(), [[fx.recorder.host, "ok "], [`127.0.0.1:${closedPort}`, "failed "]].sort());
  assert.match(servers.find((s) => s.status === "failed ")?.error ?? "", /ECONNREFUSED/);
});

T("ping --node NAME: only that node; a name the server does not list is one line, exit 1", async () => {
  const r = await differential(fx, { op: "ping-nodes", args: { name: fx.recorder.host }, mc: ["ping", "--node", fx.recorder.host, "-c", "1", "minio"], responder: minio });
  assert.equal(r.requests.map((q) => q.path), ["/minio/admin/v3/info", "/minio/health/live"]);
  assert.is(r.ours.stdout.split("\n").filter(Boolean).length, 1);
  const bad = await fx.mc(["ping", "--node", "10.9.9.9:9000", "-c", "1", "minio"]);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /^mc: <ERROR> Node 10\.9\.9\.9:9000 not exist\. the server lists .*\n$/);
});

T("admin info: the same signed GET /minio/admin/v3/info as madmin ServerInfo; the InfoMessage as real mc's JSON", async () => {
  const r = await differential(fx, { op: "server-info", mc: ["admin", "info", "minio"], responder: minio });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), ["GET /minio/admin/v3/info"]);
  assert.is(r.ours.stdout, `●  ${fx.recorder.url}\n   Mode: online\n   Servers: 2\n   Buckets: 3\n   Objects: 12\n   Server release: RELEASE.2023-01-01T00-00-00Z\n   mc release: DEVELOPMENT.GOGET\n`);
  const j = jsonLines((await fx.mc(["admin", "info", "minio", "--json"])).stdout);
  assert.equal(j, [{ status: "success", info }]);
});

T("admin info refused by MinIO itself: its error in one line, exit 1 (no S3 fallback)", async () => {
  fx.recorder.respond(() => ({ status: 403, headers: { "content-type": "application/json" }, body: JSON.stringify({ Code: "AccessDenied", Message: "Access Denied.", Resource: "/minio/admin/v3/info", RequestId: "17B" }) }));
  const r = await fx.mc(["admin", "info", "minio"]);
  assert.is(r.code, 1);
  assert.is(r.stderr, `mc: <ERROR> Unable to get service info of \`minio\` (${fx.recorder.url}). Access Denied.\n`);
});

T.run();
