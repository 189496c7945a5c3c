// Issue 28: the update notifier of a release build, against our gateway
// serving the sample catalog (newest client/mc RELEASE.2026-11-18T09-15-00Z)
// through a counting proxy: the notice once a day, one request a day, never
// with MC_UPDATE=off, --json or --quiet, never from a source checkout, and a
// dead folder changes nothing in the command's output or status.
import { once } from "node:events";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startGatewayEnv, type GatewayEnv } from "../releases/gateway-env.js";
import { freePort } from "../harness/free-port.js";
import { buildReleaseFile, runMc, runReleaseFile, type McResult } from "./mc-runner.js";

interface Ctx {
  env: GatewayEnv;
  proxy: Server;
  folder: string;
  asked: number;
  failing: boolean;
  work: string;
  build: string;
  data: string;
}

const dayMs = 24 * 60 * 60 * 1000;
const notice = "mc: You are running an older version of mc released 10 months before the latest release RELEASE.2026-11-18T09-15-00Z. Update: Run `mc update`\n";
const test = suite<Ctx>("mc update notifier", {} as Ctx);

test.before(async (ctx) => {
  ctx.env = await startGatewayEnv();
  ctx.asked = 0;
  ctx.failing = false;
  // Counts what reaches the folder; answers 503 when told to, else forwards to the gateway.
  ctx.proxy = createServer((req, res) => {
    ctx.asked++;
    if (ctx.failing) {
      res.writeHead(503).end();
      return;
    }
    const up = request(`${ctx.env.base}${req.url ?? "/"}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(up);
  });
  ctx.proxy.listen(0, "127.0.0.1");
  await once(ctx.proxy, "listening");
  ctx.folder = `http://127.0.0.1:${(ctx.proxy.address() as AddressInfo).port}/client/mc/release`;
  ctx.work = await mkdtemp(join(tmpdir(), "mc-update-notice-"));
  ctx.data = join(ctx.work, "data");
  await mkdir(ctx.data);
  await writeFile(join(ctx.data, "a.txt"), "a");
  ctx.build = join(ctx.work, "mc");
  await buildReleaseFile("RELEASE.2026-01-05T10-00-00Z", ctx.build);
});

test.after(async (ctx) => {
  ctx.proxy.close();
  await ctx.env.close();
  await rm(ctx.work, { recursive: true, force: true });
});

/** The release build run as an installed mc, with a config folder of its own. */
const release = (ctx: Ctx, config: string, args: readonly string[], env: Record<string, string> = {}): Promise<McResult> =>
  runReleaseFile(ctx.build, ["-C", config, ...args], { MC_UPDATE_URL: ctx.folder, ...env });

/** A config folder that exists already (a first run also prints where it wrote the configuration). */
async function configFolder(ctx: Ctx, name: string): Promise<string> {
  const dir = join(ctx.work, name);
  const r = await release(ctx, dir, ["ls", ctx.data], { MC_UPDATE: "off" });
  assert.is(r.code, 0, r.stderr);
  return dir;
}

/** The clock moved on by a day, as the state file sees it. */
async function aDayLater(config: string): Promise<void> {
  const file = join(config, "update-check.json");
  const state = JSON.parse(await readFile(file, "utf8")) as Record<string, number | string>;
  for (const k of ["attemptedAt", "shownAt"]) if (typeof state[k] === "number") state[k] -= dayMs;
  await writeFile(file, JSON.stringify(state));
}

test("the notice once, after the command's output; not again within the day; again a day later", async (ctx) => {
  const config = await configFolder(ctx, "daily");
  const quiet = await release(ctx, config, ["ls", ctx.data], { MC_UPDATE: "off" });
  const before = ctx.asked;
  const first = await release(ctx, config, ["ls", ctx.data]);
  assert.is(first.code, 0, first.stderr);
  assert.is(first.stdout, quiet.stdout);
  assert.is(first.stderr, notice);
  assert.is(ctx.asked, before + 1);
  const second = await release(ctx, config, ["ls", ctx.data]);
  assert.is(second.stderr, "", "not again within the day");
  assert.is(ctx.asked, before + 1, "no second request within the day");
  await aDayLater(config);
  const third = await release(ctx, config, ["ls", join(ctx.data, "missing")]);
  assert.is(third.code, 1, "the command's own status stays");
  assert.match(third.stderr, /^mc: <ERROR> .*\n/);
  assert.ok(third.stderr.endsWith(notice), third.stderr);
  assert.is(ctx.asked, before + 2);
});

test("MC_UPDATE=off, --json and --quiet: no notice and no request", async (ctx) => {
  const config = await configFolder(ctx, "silent");
  const before = ctx.asked;
  for (const [args, env] of [[["ls", ctx.data], { MC_UPDATE: "off" }], [["ls", "--json", ctx.data], {}], [["ls", "--quiet", ctx.data], {}], [["ls", ctx.data], { MC_JSON: "1" }]] as const) {
    const r = await release(ctx, config, args, env);
    assert.is(r.code, 0, r.stderr);
    assert.is(r.stderr, "", `${args.join(" ")} ${JSON.stringify(env)}`);
  }
  assert.is(ctx.asked, before);
});

test("a source checkout never asks", async (ctx) => {
  const before = ctx.asked;
  const r = await runMc(["-C", join(ctx.work, "source"), "ls", ctx.data], { env: { MC_UPDATE_URL: ctx.folder } });
  assert.is(r.code, 0, r.stderr);
  assert.not.match(r.stderr, /older version/);
  assert.is(ctx.asked, before);
});

test("a failing folder is asked once a day; a dead one changes nothing in the command", async (ctx) => {
  const config = await configFolder(ctx, "failing");
  ctx.failing = true;
  try {
    const before = ctx.asked;
    for (let i = 0; i < 3; i++) {
      const r = await release(ctx, config, ["ls", ctx.data]);
      assert.is(r.stderr, "");
    }
    assert.is(ctx.asked, before + 1);
  } finally {
    ctx.failing = false;
  }
  const dead = await configFolder(ctx, "dead");
  const off = await release(ctx, dead, ["ls", ctx.data], { MC_UPDATE: "off" });
  const r = await release(ctx, dead, ["ls", ctx.data], { MC_UPDATE_URL: `http://127.0.0.1:${await freePort()}/client/mc/release` });
  assert.equal([r.code, r.stdout, r.stderr], [off.code, off.stdout, off.stderr]);
  const state = JSON.parse(await readFile(join(dead, "update-check.json"), "utf8")) as Record<string, unknown>;
  assert.type(state["attemptedAt"], "number", "the attempt is remembered: no other request today");
});

test.run();
