// Issue 17, Found 2, 3 and 6: `releases publish` names its deployment once and
// refuses every guess with one line that names the fix and a non-zero exit.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createFsReleaseStore, publishSampleCatalog, readCatalog } from "@mc/releases";
import { startNatsServer, type NatsNode } from "../harness/nats-server.js";
import { startProcess } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";
import { makeReleaseDir } from "./release-dir.js";

const releasesBin = fileURLToPath(new URL("../../services/releases/bin/releases.js", import.meta.url));
const id = "RELEASE.2026-12-24T10-00-00Z";

interface Ctx {
  root: string;
  /** A release directory of client/mc. */
  dir: string;
  /** A store with the sample catalog and its key, served by no one. */
  store: string;
  key: string;
  nats: NatsNode | undefined;
}

const target = suite<Ctx>("releases publish: the target", { root: "", dir: "", store: "", key: "", nats: undefined });

/** Runs the CLI in an empty folder with a clean environment (only what `env` adds). */
function cli(ctx: Ctx, args: string[], env: Record<string, string> = {}): { status: number | null; out: string; err: string; cwd: string } {
  const cwd = join(ctx.root, `cwd-${Math.random().toString(36).slice(2)}`);
  spawnSync("mkdir", ["-p", cwd]);
  const clean = { ...process.env, DATA_DIR: "", NATS_URL: "", RELEASES_STORE: "", RELEASES_SIGNING_KEY: "", ...env };
  const r = spawnSync(process.execPath, [releasesBin, ...args], { cwd, env: clean, encoding: "utf8" });
  return { status: r.status, out: r.stdout, err: r.stderr, cwd };
}

const oneLine = (text: string): void => assert.is(text.trim().split("\n").length, 1, `one line: ${text}`);

target.before(async (ctx) => {
  ctx.root = await mkdtemp(join(tmpdir(), "publish-target-"));
  ctx.dir = await makeReleaseDir(join(ctx.root, "dist"), { component: "mc", releaseId: id });
  ctx.store = join(ctx.root, "store");
  ctx.key = join(ctx.root, "minisign.key");
  await publishSampleCatalog(await createFsReleaseStore(ctx.store), ctx.key);
  ctx.nats = await startNatsServer();
});
target.after(async (ctx) => {
  await ctx.nats?.stop();
  await rm(ctx.root, { recursive: true, force: true });
});

const pub = ["publish", "--product", "client", "--component", "mc", "--from"];

target("Found 2: --store of a store no service serves is refused without --offline, and nothing is written", async (ctx) => {
  const r = cli(ctx, [...pub, ctx.dir, "--store", ctx.store, "--key", ctx.key]);
  assert.is(r.status, 1, r.out + r.err);
  oneLine(r.err);
  assert.match(r.err, "--offline");
  assert.not.ok((await readCatalog(await createFsReleaseStore(ctx.store))).get("client")?.some((e) => e.releaseId === id));
});

target("Found 2: --nats with no release service behind it fails, naming the fix; it never writes a local store", async (ctx) => {
  const r = cli(ctx, [...pub, ctx.dir, "--nats", ctx.nats?.url ?? ""]);
  assert.is(r.status, 1, r.out + r.err);
  oneLine(r.err);
  assert.match(r.err, "no release service answers");
  assert.not.ok(existsSync(join(r.cwd, ".data")), "left ./.data behind");
});

target("Found 2: --nats publishes into the store the running service serves", async (ctx) => {
  const serve = startProcess(process.execPath, [releasesBin, "serve", "--nats", ctx.nats?.url ?? "", "--store", ctx.store, "--base-url", "http://dl.example.test", "--key", ctx.key]);
  try {
    await waitFor(() => serve.output().includes("releases ready"), { what: `releases: ${serve.output()}`, timeoutMs: 30000 });
    const r = cli(ctx, [...pub, ctx.dir, "--nats", ctx.nats?.url ?? ""]);
    assert.is(r.status, 0, r.out + r.err);
    assert.match(r.out, `published client/mc ${id}`);
    assert.ok((await readCatalog(await createFsReleaseStore(ctx.store))).get("client")?.some((e) => e.releaseId === id));
    assert.not.ok(existsSync(join(r.cwd, ".data")), "left ./.data behind");
  } finally {
    await serve.stop();
  }
});

target("Found 3: DATA_DIR names the target: no running deployment there is one line and exit 1, and no ./.data is left", async (ctx) => {
  const dataDir = join(ctx.root, "data-not-running");
  await mkdir(dataDir);
  const r = cli(ctx, [...pub, ctx.dir], { DATA_DIR: dataDir });
  assert.is(r.status, 1, r.out + r.err);
  oneLine(r.err);
  assert.match(r.err, dataDir);
  assert.not.ok(existsSync(join(r.cwd, ".data")), "left ./.data behind");
  assert.equal(await readdir(dataDir), [], "wrote into a data folder no one serves");
});

target("Found 3: keygen honours DATA_DIR", async (ctx) => {
  const dataDir = join(ctx.root, "data-keygen");
  const r = cli(ctx, ["keygen"], { DATA_DIR: dataDir });
  assert.is(r.status, 0, r.err);
  assert.ok(existsSync(join(dataDir, "minisign.key")));
  assert.not.ok(existsSync(join(r.cwd, ".data")), "left ./.data behind");
});

target("missing signing key: one line naming `releases keygen`, exit 1", async (ctx) => {
  const r = cli(ctx, [...pub, ctx.dir, "--offline", "--store", ctx.store, "--key", join(ctx.root, "no-such.key")]);
  assert.is(r.status, 1, r.out + r.err);
  oneLine(r.err);
  assert.match(r.err, "releases keygen");
});

target("Found 6: an unknown product is refused unless --new-product", async (ctx) => {
  const r = cli(ctx, ["publish", "--product", "foo", "--component", "mc", "--from", ctx.dir, "--offline", "--store", ctx.store, "--key", ctx.key]);
  assert.is(r.status, 1, r.out + r.err);
  oneLine(r.err);
  assert.match(r.err, "--new-product");
  assert.not.ok((await readCatalog(await createFsReleaseStore(ctx.store))).has("foo"), "created product foo");
  const ok = cli(ctx, ["publish", "--product", "foo", "--component", "mc", "--from", ctx.dir, "--offline", "--store", ctx.store, "--key", ctx.key, "--new-product"]);
  assert.is(ok.status, 0, ok.out + ok.err);
  assert.ok((await readCatalog(await createFsReleaseStore(ctx.store))).has("foo"));
});

/** Runs `fn` while one `releases serve` (with `keyArgs`) answers on the suite's NATS. */
async function whileServing(ctx: Ctx, keyArgs: string[], fn: () => Promise<void>): Promise<void> {
  const serve = startProcess(process.execPath, [releasesBin, "serve", "--nats", ctx.nats?.url ?? "", "--store", ctx.store, "--base-url", "http://dl.example.test", ...keyArgs]);
  try {
    await waitFor(() => serve.output().includes("releases ready"), { what: `releases: ${serve.output()}`, timeoutMs: 30000 });
    await fn();
  } finally {
    await serve.stop();
  }
}

target("Found 6 through --nats: the service refuses an unknown product unless --new-product, one line, exit 1", async (ctx) => {
  await whileServing(ctx, ["--key", ctx.key], async () => {
    const r = cli(ctx, ["publish", "--product", "nats-typo", "--component", "mc", "--from", ctx.dir, "--nats", ctx.nats?.url ?? ""]);
    assert.is(r.status, 1, r.out + r.err);
    oneLine(r.err);
    assert.match(r.err, "--new-product");
    assert.not.ok((await readCatalog(await createFsReleaseStore(ctx.store))).has("nats-typo"), "created the product");
    const ok = cli(ctx, ["publish", "--product", "nats-typo", "--component", "mc", "--from", ctx.dir, "--nats", ctx.nats?.url ?? "", "--new-product"]);
    assert.is(ok.status, 0, ok.out + ok.err);
    assert.ok((await readCatalog(await createFsReleaseStore(ctx.store))).has("nats-typo"));
  });
});

target("missing signing key through --nats: a service whose --key file is missing says how to make it, one line, exit 1", async (ctx) => {
  await whileServing(ctx, ["--key", join(ctx.root, "no-such.key")], async () => {
    const r = cli(ctx, [...pub, ctx.dir, "--nats", ctx.nats?.url ?? ""]);
    assert.is(r.status, 1, r.out + r.err);
    oneLine(r.err);
    assert.match(r.err, "releases keygen --key");
  });
});

target("no signing key through --nats: a service started without --key says to start it with one, one line, exit 1", async (ctx) => {
  await whileServing(ctx, [], async () => {
    const r = cli(ctx, [...pub, ctx.dir, "--nats", ctx.nats?.url ?? ""], { RELEASES_SIGNING_KEY: "" });
    assert.is(r.status, 1, r.out + r.err);
    oneLine(r.err);
    assert.match(r.err, "--key FILE");
  });
});

target.run();

