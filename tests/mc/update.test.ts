// `mc update` against an in-process gateway serving the sample catalog
// (contracts/mc.md §9, contracts/releases.md §3): the source-checkout refusal,
// --dry-run checks, corrupted and badly signed downloads (255, old file kept),
// and a full update of a release build to a newer published release build.
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { runPublish } from "@mc/releases";
import { createMinisignKeyPair, initCrypto, minisignPublicKeyLine } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startGatewayEnv, type GatewayEnv } from "../releases/gateway-env.js";
import { makeReleaseDir } from "../releases/release-dir.js";
import { waitFor } from "../harness/wait-for.js";
import { buildReleaseFile, jsonLines, runMc, runReleaseFile, type McResult } from "./mc-runner.js";

interface Ctx {
  env: GatewayEnv;
  work: string;
  configDir: string;
  folder: string;
  pubkey: string;
}

const archNames: Record<string, string> = { x64: "amd64", arm64: "arm64" };
const platform = `${process.platform === "win32" ? "windows" : process.platform}-${archNames[process.arch] ?? process.arch}`;
const sampleLatest = "RELEASE.2026-11-18T09-15-00Z";
const oldRelease = "RELEASE.2026-01-05T10-00-00Z";
const newRelease = "RELEASE.2026-11-20T08-00-00Z";
const run = promisify(execFile);
/** /.dockerenv exists in CI containers: update the file, do not print `docker pull`. */
const noDocker = { MC_UPDATE_DOCKER: "off" };

const test = suite<Ctx>("mc update");

/** The dev `mc` (a source checkout). */
const mc = (ctx: Ctx, args: readonly string[], env: Record<string, string | undefined> = {}): Promise<McResult> =>
  runMc(["-C", ctx.configDir, ...args], { env: { MC_UPDATE_URL: ctx.folder, ...noDocker, ...env } });

/** A release build file run with node, like an installed mc. */
const runFile = (ctx: Ctx, file: string, args: readonly string[], env: Record<string, string | undefined> = {}): Promise<McResult> =>
  runReleaseFile(file, ["-C", ctx.configDir, ...args], { MC_UPDATE_URL: ctx.folder, ...noDocker, ...env });

/** A release build carrying `keyFile` as its publisher key (none: a build without one). */
const releaseBuild = (release: string, out: string, keyFile?: string): Promise<string> =>
  buildReleaseFile(release, out, { commit: "0123456789abcdef", ...(keyFile ? { keyFile } : {}) });

const versionLine = async (file: string): Promise<string> => (await run(process.execPath, [file, "--version"])).stdout.split("\n")[0] ?? "";

test.before(async (ctx) => {
  ctx.env = await startGatewayEnv();
  ctx.work = await mkdtemp(join(tmpdir(), "mc-update-"));
  ctx.configDir = join(ctx.work, "config");
  ctx.folder = `${ctx.env.base}/client/mc/release`;
  ctx.pubkey = await (await fetch(`${ctx.env.base}/minisign.pub`)).text();
});

test.after(async (ctx) => {
  await ctx.env.close();
  await rm(ctx.work, { recursive: true, force: true });
});

test("a source checkout refuses to update (exit 1) and names the latest release", async (ctx) => {
  const r = await mc(ctx, ["update"]);
  assert.is(r.code, 1, r.stderr);
  assert.match(r.stderr, /mc: <ERROR> This mc runs from a source checkout \(DEVELOPMENT\.GOGET\) and cannot update itself; the latest release is RELEASE\.2026-11-18T09-15-00Z\./);
  const json = await mc(ctx, ["update", "--json"]);
  assert.is(json.code, 1);
  const [e] = jsonLines(json.stdout);
  assert.is(e?.["status"], "error");
});

test("--dry-run downloads and verifies the latest build (SHA-256 and minisign, key as text or file)", async (ctx) => {
  const r = await mc(ctx, ["update", "--dry-run", "--json"], { MC_UPDATE_MINISIGN_PUBKEY: ctx.pubkey.split("\n")[1] });
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.equal(jsonLines(r.stdout), [{ status: "success", message: `mc can be updated to version ${sampleLatest} (SHA-256 and minisign signature verified; --dry-run installs nothing).` }]);
  const keyFile = join(ctx.work, "minisign.pub");
  await writeFile(keyFile, ctx.pubkey);
  const fromFile = await mc(ctx, ["update", "--dry-run"], { MC_UPDATE_MINISIGN_PUBKEY: keyFile });
  assert.is(fromFile.code, 0, fromFile.stderr);
  assert.match(fromFile.stdout, /^mc can be updated to version RELEASE\.2026-11-18T09-15-00Z/);
});

test("a signature from another key is refused with exit 255", async (ctx) => {
  await initCrypto();
  const other = minisignPublicKeyLine(createMinisignKeyPair());
  const r = await mc(ctx, ["update", "--dry-run"], { MC_UPDATE_MINISIGN_PUBKEY: other });
  assert.is(r.code, 255);
  assert.match(r.stderr, /^mc: <ERROR> The signature of RELEASE\.2026-11-18T09-15-00Z does not verify against MC_UPDATE_MINISIGN_PUBKEY\./);
});

test("a tampered checksum or a corrupted download exits 255; a malformed checksum file too", async (ctx) => {
  // The gateway serves the latest alias from the catalog's release, so the damage goes there.
  const dir = join(ctx.env.root, "releases", "client", "mc", "release", platform, "archive");
  const sumFile = join(dir, `mc.${sampleLatest}.sha256sum`);
  const original = await readFile(sumFile, "utf8");
  try {
    await writeFile(sumFile, `${"0".repeat(64)} mc.${sampleLatest}\n`);
    const r = await mc(ctx, ["update", "--dry-run"]);
    assert.is(r.code, 255, r.stderr);
    assert.match(r.stderr, /is corrupt: its SHA-256 does not match `mc\.sha256sum`/);
    await writeFile(sumFile, "not a checksum file\n");
    const bad = await mc(ctx, ["update"]);
    assert.is(bad.code, 255);
    assert.match(bad.stderr, /Unable to parse `.*\/mc\.sha256sum`/);
  } finally {
    await writeFile(sumFile, original);
  }
  const down = await mc(ctx, ["update"], { MC_UPDATE_URL: "http://127.0.0.1:9/client/mc/release" });
  assert.is(down.code, 255);
  assert.match(down.stderr, /Unable to reach the release server/);
});

test("a release build updates itself to a newer published release build; a build that does not run is rolled back", async (ctx) => {
  const bin = join(ctx.work, "bin");
  await mkdir(bin, { recursive: true });
  const keyFile = join(ctx.work, "publisher.pub");
  await writeFile(keyFile, ctx.pubkey);
  const installed = await releaseBuild(oldRelease, join(bin, "mc"), keyFile);
  assert.is(await versionLine(installed), `mc version ${oldRelease} (commit-id=0123456789abcdef)`);

  // The sample catalog's latest "binary" is a shell script: it cannot answer --version, so it is rolled back.
  const rolledBack = await runFile(ctx, installed, ["update"]);
  assert.is(rolledBack.code, 255, rolledBack.stderr);
  assert.match(rolledBack.stderr, /The new mc RELEASE\.2026-11-18T09-15-00Z does not run; the old version was kept\./);
  assert.is(await versionLine(installed), `mc version ${oldRelease} (commit-id=0123456789abcdef)`);

  // Publish a real newer build through the release service.
  const src = await makeReleaseDir(join(ctx.work, "publish"), { component: "mc", releaseId: newRelease, platforms: [platform] });
  await releaseBuild(newRelease, join(ctx.work, "new-mc"));
  await copyFile(join(ctx.work, "new-mc"), join(src, platform, "mc"));
  await runPublish({ store: ctx.env.store, keyFile: join(ctx.env.root, "minisign.key"), product: "client", component: "mc", releaseId: newRelease, from: src });
  // Written straight into the store, as a CI job would: the service notices within 2 s.
  await waitFor(async () => (await (await fetch(`${ctx.env.base}/api/releases/client/latest`)).text()).includes(newRelease), { what: "the new release live", timeoutMs: 10000 });

  const updated = await runFile(ctx, installed, ["update"], { MC_UPDATE_MINISIGN_PUBKEY: ctx.pubkey });
  assert.is(updated.code, 1, updated.stderr);
  assert.is(updated.stdout, `mc updated to version ${newRelease} successfully.\n`);
  assert.is(await versionLine(installed), `mc version ${newRelease} (commit-id=0123456789abcdef)`);

  const again = await runFile(ctx, installed, ["update", "--json"]);
  assert.is(again.code, 0, again.stderr);
  assert.equal(jsonLines(again.stdout), [{ status: "success", message: "You are already running the most recent version of ‘mc’." }]);
});

test("safe by default: a release build verifies with its built-in key; without a key, or against another publisher's, nothing is installed", async (ctx) => {
  const bin = join(ctx.work, "bin-keys");
  await mkdir(bin, { recursive: true });
  const keyless = await releaseBuild(oldRelease, join(bin, "mc-keyless"));
  const none = await runFile(ctx, keyless, ["update"]);
  assert.is(none.code, 255, none.stderr);
  assert.match(none.stderr, /^mc: <ERROR> Refusing RELEASE\.\S+: this mc carries no publisher key to verify its signature\. Set MC_UPDATE_MINISIGN_PUBKEY/);
  assert.is(await versionLine(keyless), `mc version ${oldRelease} (commit-id=0123456789abcdef)`);
  const dry = await runFile(ctx, keyless, ["update", "--dry-run"]);
  assert.is(dry.code, 255, "a dry run without a key verifies nothing and says so");
  await initCrypto();
  const otherFile = join(ctx.work, "other-publisher.pub");
  await writeFile(otherFile, minisignPublicKeyLine(createMinisignKeyPair()));
  const foreign = await releaseBuild(oldRelease, join(bin, "mc-foreign"), otherFile);
  const refused = await runFile(ctx, foreign, ["update"]);
  assert.is(refused.code, 255, refused.stderr);
  assert.match(refused.stderr, /^mc: <ERROR> The signature of RELEASE\.\S+ does not verify against the publisher key built into mc\./);
  assert.is(await versionLine(foreign), `mc version ${oldRelease} (commit-id=0123456789abcdef)`);
});

test.run();
