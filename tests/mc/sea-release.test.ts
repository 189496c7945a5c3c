// Issue 23 end to end: `npm run release -- mc` publishes build N and then
// N+1 into a running embedded deployment (`npm start`'s gateway program);
// a fresh folder whose PATH has no node downloads N with curl, checks it with
// `minisign -Vm`, lists a bucket of Ceph RGW with it, refuses a tampered N+1
// (binary and checksum file changed together) and keeps working, then
// `mc update`s to the real N+1. The published SBOMs validate against the
// vendored CycloneDX 1.6 and SPDX schemas and name every npm package of the
// executable with its version and license.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createSbomValidator } from "../../services/releases/src/adapters/sbom-validator.js";
import { startCephRgw, type CephRgw } from "../harness/ceph-rgw.js";
import { freePort } from "../harness/free-port.js";
import { startProcess, type Started } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";
import { bundledNpmPackages as bundleInputs, releaseWith, repoRoot, shell, type McResult as ShellResult } from "./mc-runner.js";


const buildN = "RELEASE.2026-12-01T10-00-00Z";
const buildN1 = "RELEASE.2026-12-02T10-00-00Z";

interface Ctx {
  work: string;
  data: string;
  base: string;
  gateway: Started;
  rgw: CephRgw;
  /** The user's folder (no node on its PATH) and its PATH. */
  home: string;
  path: string;
}

const test = suite<Ctx>("mc single executable, released and updated");

/** A user's shell in the fresh folder: PATH holds only sh, curl, minisign and cat. */
const user = (ctx: Ctx, script: string, env: Record<string, string> = {}): Promise<ShellResult> =>
  shell(script, { cwd: ctx.home, env: { PATH: ctx.path, HOME: ctx.home, MC_UPDATE_URL: `${ctx.base}/client/mc/release`, MC_UPDATE_DOCKER: "off", ...env } });

const latestId = async (ctx: Ctx): Promise<string> => ((await (await fetch(`${ctx.base}/api/releases/client/latest`)).json()) as Array<{ release_id: string }>)[0]?.release_id ?? "";

test.before(async (ctx) => {
  ctx.work = await mkdtemp(join(tmpdir(), "mc-sea-release-"));
  ctx.data = join(ctx.work, "data");
  const port = await freePort();
  ctx.base = `http://127.0.0.1:${port}`;
  const rgw = startCephRgw();
  // The embedded default as `npm start` runs it (the seeded mc is another test's business: off here).
  ctx.gateway = startProcess(process.execPath, [join(repoRoot, "app/bin/gateway.js"), "--listen", `127.0.0.1:${port}`, "--kms-listen", "off"], {
    env: { ...process.env, DATA_DIR: ctx.data, NATS_URL: "", RELEASES_STORE: "", RELEASES_SIGNING_KEY: "", MC_SEED_MC: "off" },
  });
  await waitFor(() => fetch(`${ctx.base}/healthz`).then((r) => r.ok), { what: `gateway: ${ctx.gateway.output()}`, timeoutMs: 60000 });
  ctx.rgw = await rgw;
  ctx.home = join(ctx.work, "home");
  const bin = join(ctx.work, "user-bin");
  await mkdir(ctx.home, { recursive: true });
  await mkdir(bin, { recursive: true });
  for (const tool of ["sh", "curl", "minisign", "cat", "chmod"]) {
    const found = (await promisify(execFile)("sh", ["-c", `command -v ${tool}`])).stdout.trim();
    await symlink(found, join(bin, tool));
  }
  ctx.path = bin;
});

test.after(async (ctx) => {
  await ctx.gateway?.stop();
  await ctx.rgw?.stop();
  await rm(ctx.work, { recursive: true, force: true });
});

test("npm run release -- mc publishes build N; without node on PATH, curl + minisign -Vm + ./mc ls against RGW work", async (ctx) => {
  const r = await releaseWith(["--release", buildN, "--data-dir", ctx.data, "--out", join(ctx.work, "dist-n")]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`published client/mc ${buildN.replaceAll(".", "\\.")}.*now latest`));
  await waitFor(async () => (await latestId(ctx)) === buildN, { what: `${buildN} latest`, timeoutMs: 5000 });

  const noNode = await user(ctx, "command -v node || echo none");
  assert.is(noNode.stdout.trim(), "none", "the user's PATH has no node");
  const get = await user(ctx, `curl -fsS -O ${ctx.base}/client/mc/release/linux-amd64/mc -O ${ctx.base}/client/mc/release/linux-amd64/mc.minisig -O ${ctx.base}/minisign.pub && minisign -Vm mc -p minisign.pub && chmod +x mc && ./mc --version`);
  assert.is(get.code, 0, get.stderr);
  assert.match(get.stdout, /Signature and comment signature verified/);
  assert.match(get.stdout, new RegExp(`^mc version ${buildN.replaceAll(".", "\\.")} `, "m"));

  // The ready --help text (sea-loader.cjs) is what the program itself prints (--quiet takes the program's path).
  const help = await user(ctx, "./mc --help && ./mc --quiet --help");
  assert.is(help.code, 0, help.stderr);
  const half = help.stdout.length / 2;
  assert.is(help.stdout.slice(0, half), help.stdout.slice(half));
  assert.match(help.stdout, `(default: "${ctx.home}/.mc")`);

  const { endpoint, accessKey, secretKey } = ctx.rgw;
  const names = Array.from({ length: 10 }, (_, i) => `object ${i} +%#ü.txt`);
  const put = await user(ctx, [`./mc -C cfg alias set rgw ${endpoint} ${accessKey} ${secretKey}`, "./mc -C cfg mb rgw/sea-bucket", ...names.map((n) => `echo body | ./mc -C cfg pipe "rgw/sea-bucket/${n}"`)].join(" && "));
  assert.is(put.code, 0, put.stderr);
  const ls = await user(ctx, "./mc -C cfg ls --json rgw/sea-bucket");
  assert.is(ls.code, 0, ls.stderr);
  assert.equal(ls.stdout.trim().split("\n").map((l) => (JSON.parse(l) as { key: string }).key).sort(), [...names].sort());

  // Each start-up compiles with the code cache trained for it: alias list's, without the S3 SDK, and ls's.
  const caches = await user(ctx, "./mc -C cfg alias list >/dev/null && ./mc -C cfg ls rgw/sea-bucket >/dev/null", { MC_SEA_DEBUG_CACHE: "1" });
  assert.is(caches.code, 0, caches.stderr);
  assert.is(caches.stderr, "mc: code cache used (local-cache)\nmc: code cache used (cache)\n");
});

test("build N+1 tampered (binary and checksum file alike) is refused with 255; the old mc keeps working", async (ctx) => {
  const r = await releaseWith(["--release", buildN1, "--data-dir", ctx.data, "--out", join(ctx.work, "dist-n1")]);
  assert.is(r.code, 0, r.stderr);
  await waitFor(async () => (await latestId(ctx)) === buildN1, { what: `${buildN1} latest`, timeoutMs: 5000 });
  const archive = join(ctx.data, "releases/client/mc/release/linux-amd64/archive");
  const file = join(archive, `mc.${buildN1}`);
  const sumFile = `${file}.sha256sum`;
  await copyFile(file, join(ctx.work, "n1-original"));
  const original = { sum: await readFile(sumFile, "utf8") };
  const bytes = await readFile(file);
  const middle = bytes.length >> 1;
  bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
  await writeFile(file, bytes);
  await writeFile(sumFile, `${createHash("sha256").update(bytes).digest("hex")} mc.${buildN1}\n`);
  try {
    const refused = await user(ctx, "./mc update");
    assert.is(refused.code, 255, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /The signature of RELEASE\.2026-12-02T10-00-00Z does not verify against the publisher key built into mc\./);
    const still = await user(ctx, "./mc --version && ./mc -C cfg ls rgw/sea-bucket");
    assert.is(still.code, 0, still.stderr);
    assert.match(still.stdout, new RegExp(`^mc version ${buildN.replaceAll(".", "\\.")} `));
    assert.is(still.stdout.trim().split("\n").length, 4 + 10, "four lines of --version, ten objects");
  } finally {
    await copyFile(join(ctx.work, "n1-original"), file);
    await writeFile(sumFile, original.sum);
  }
});

test("./mc update moves to build N+1, whose --version shows the new id", async (ctx) => {
  const up = await user(ctx, "./mc update");
  assert.is(up.code, 1, up.stderr);
  assert.is(up.stdout, `mc updated to version ${buildN1} successfully.\n`);
  const v = await user(ctx, "./mc --version && ./mc -C cfg ls rgw/sea-bucket");
  assert.is(v.code, 0, v.stderr);
  assert.match(v.stdout, new RegExp(`^mc version ${buildN1.replaceAll(".", "\\.")} `));
  const again = await user(ctx, "./mc update");
  assert.is(again.code, 0, again.stderr);
  assert.match(again.stdout, /already running the most recent version/);
});

test("the published SBOMs validate (CycloneDX 1.6, SPDX) and name every npm package of the executable with version and license", async (ctx) => {
  const index = (await (await fetch(`${ctx.base}/client/mc/release/notes/`, { headers: { accept: "application/json" } })).json()) as { releases: Array<Record<string, string>> };
  const rel = index.releases.find((r) => r["release_id"] === buildN);
  assert.ok(rel, "build N in the notes index");
  const cdx = (await (await fetch(rel?.["sbom_cyclonedx"] ?? "")).json()) as { components: Array<{ name: string; version: string; licenses: Array<{ license?: { id: string }; expression?: string }> }> };
  const spdx = (await (await fetch(rel?.["sbom_spdx"] ?? "")).json()) as { packages: Array<{ name: string; versionInfo: string; licenseDeclared: string }> };
  const gomod = await (await fetch(rel?.["go_modules"] ?? "")).text();
  const validate = await createSbomValidator();
  assert.equal(validate("cyclonedx", cdx, "cyclonedx"), []);
  assert.equal(validate("spdx", spdx, "spdx"), []);
  // What is in the bundle, read independently of the pipeline: esbuild's metafile of a release build.
  const packages = await bundleInputs(ctx.work);
  assert.ok(packages.length > 40, `${packages.length} packages`);
  for (const p of packages) {
    const c = cdx.components.find((x) => x.name === p.name && x.version === p.version);
    assert.ok(c, `${p.name}@${p.version} in CycloneDX`);
    assert.is(c?.licenses[0]?.license?.id ?? c?.licenses[0]?.expression, p.license, `${p.name} license in CycloneDX`);
    assert.ok(spdx.packages.some((x) => x.name === p.name && x.versionInfo === p.version && x.licenseDeclared === p.license), `${p.name}@${p.version} (${p.license}) in SPDX`);
    assert.ok(gomod.split("\n").includes(`${p.name} v${p.version}`), `${p.name} v${p.version} in the module list`);
  }
  assert.is(gomod.split("\n")[0], "@mc/cli");
  assert.is(cdx.components.length, packages.length + 1, "the npm packages and node itself, nothing else");
});

test.run();
