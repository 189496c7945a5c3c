// Issue 28, version drift: a release build of mc asked for `admin info` by a
// server (MinIO's admin info API on the recording endpoint) that reports a
// release a year newer, a year older, or close to mc's own: one warning
// naming both releases and what to do (text on stderr, a warning object with
// --json), both releases always shown, the exit status unchanged.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { buildReleaseFile, jsonLines, runReleaseFile, type McResult } from "../mc/mc-runner.js";
import { keys } from "./fixture.js";
import { startRecorder, type Recorder } from "./recorder.js";

interface Ctx {
  recorder: Recorder;
  work: string;
  build: string;
}

const ours = "RELEASE.2026-01-05T10-00-00Z";
const T = suite<Ctx>("mc admin info: client and server releases apart", {} as Ctx);

T.before(async (ctx) => {
  ctx.recorder = await startRecorder(keys);
  ctx.work = await mkdtemp(join(tmpdir(), "mc-drift-"));
  ctx.build = join(ctx.work, "mc");
  await buildReleaseFile(ours, ctx.build);
});

T.after(async (ctx) => {
  await ctx.recorder.close();
  await rm(ctx.work, { recursive: true, force: true });
});

/** The server says it runs `version` (MinIO reports the release time). */
function serverAt(ctx: Ctx, version: string): void {
  const body = JSON.stringify({ mode: "online", servers: [{ state: "online", endpoint: ctx.recorder.host, version }], buckets: { count: 1 }, objects: { count: 2 } });
  ctx.recorder.respond((req) => (req.path === "/minio/admin/v3/info" ? { headers: { "content-type": "application/json" }, body } : { status: 404 }));
}

function info(ctx: Ctx, json = false): Promise<McResult> {
  const host = `http://${keys.access}:${encodeURIComponent(keys.secret)}@${ctx.recorder.host}`;
  return runReleaseFile(ctx.build, ["-C", join(ctx.work, "config"), "admin", "info", "minio", ...(json ? ["--json"] : [])], { MC_HOST_minio: host, MC_UPDATE: "off" });
}

T("a server a year newer: mc is older, update mc", async (ctx) => {
  serverAt(ctx, "2027-01-05T10:00:00Z");
  const r = await info(ctx);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /\n {3}Server release: RELEASE\.2027-01-05T10-00-00Z\n {3}mc release: RELEASE\.2026-01-05T10-00-00Z\n$/);
  assert.match(r.stderr, /^(mc: Configuration written to .*\n)?mc: <WARNING> mc RELEASE\.2026-01-05T10-00-00Z is older than the server's release RELEASE\.2027-01-05T10-00-00Z \(365 days\); update mc with `mc update`\.\n$/);
  const j = await info(ctx, true);
  assert.is(j.code, 0);
  const [first, warning, ...rest] = jsonLines(j.stdout);
  assert.is(first?.["status"], "success");
  assert.equal(warning, {
    status: "warning",
    warning: { message: "mc RELEASE.2026-01-05T10-00-00Z is older than the server's release RELEASE.2027-01-05T10-00-00Z (365 days); update mc with `mc update`.", client: ours, server: "RELEASE.2027-01-05T10-00-00Z", days: 365 },
  });
  assert.is(rest.length, 0);
  assert.is(j.stderr, "");
});

T("a server a year older: more than 180 days apart, update the server", async (ctx) => {
  serverAt(ctx, "RELEASE.2025-01-05T10-00-00Z");
  const r = await info(ctx);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stderr, "mc: <WARNING> mc RELEASE.2026-01-05T10-00-00Z and the server's release RELEASE.2025-01-05T10-00-00Z are 365 days apart; update the server, or use an mc released within 180 days of it.\n");
  const j = jsonLines((await info(ctx, true)).stdout);
  assert.equal(j[1]?.["warning"], { message: "mc RELEASE.2026-01-05T10-00-00Z and the server's release RELEASE.2025-01-05T10-00-00Z are 365 days apart; update the server, or use an mc released within 180 days of it.", client: ours, server: "RELEASE.2025-01-05T10-00-00Z", days: 365 });
});

T("a server released the same season, or not saying: both shown, no warning", async (ctx) => {
  serverAt(ctx, "2025-11-05T10:00:00Z");
  const r = await info(ctx);
  assert.is(r.stderr, "");
  assert.match(r.stdout, /Server release: RELEASE\.2025-11-05T10-00-00Z\n {3}mc release: RELEASE\.2026-01-05T10-00-00Z\n$/);
  assert.is(jsonLines((await info(ctx, true)).stdout).length, 1);
  serverAt(ctx, "devel");
  const d = await info(ctx);
  assert.is(d.stderr, "");
  assert.match(d.stdout, /Server release: \(not reported\)\n/);
});

T.run();
