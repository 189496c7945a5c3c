// `releases publish` holds one binary in memory, not every platform's at once:
// its peak RSS, as GNU time reports it, is measured for a release of five
// 48 MiB binaries against the same release with tiny ones. Before, the five
// were all read before the first write, and the peak grew by all of them.
import { spawnSync } from "node:child_process";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { makeReleaseDir } from "./release-dir.js";

const releasesBin = fileURLToPath(new URL("../../services/releases/bin/releases.js", import.meta.url));
const platforms = ["linux-amd64", "linux-arm64", "linux-ppc64le", "darwin-arm64", "windows-amd64"];
const binaryMiB = 48;
const id = "RELEASE.2026-04-01T00-00-00Z";

interface Ctx {
  root: string;
}
const memory = suite<Ctx>("releases publish: memory", { root: "" });

memory.before(async (ctx) => {
  ctx.root = await mkdtemp(join(tmpdir(), "publish-memory-"));
});
memory.after(async (ctx) => {
  await rm(ctx.root, { recursive: true, force: true });
});

/** Peak RSS in MiB of one offline publish of `dir` into a new store. */
function publishPeakMiB(ctx: Ctx, dir: string, store: string): number {
  spawnSync("mkdir", ["-p", store]);
  const args = ["-f", "%M", process.execPath, releasesBin, "publish", "--product", "client", "--component", "mc", "--from", dir, "--new-product", "--offline", "--store", store, "--key", join(ctx.root, "key")];
  const r = spawnSync("/usr/bin/time", args, { encoding: "utf8" });
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, "published client/mc");
  return Number(r.stderr.trim().split("\n").at(-1)) / 1024;
}

memory("should publish five 48 MiB binaries within one binary's memory of a tiny release", async (ctx) => {
  const keygen = spawnSync(process.execPath, [releasesBin, "keygen", "--key", join(ctx.root, "key")], { encoding: "utf8" });
  assert.is(keygen.status, 0, keygen.stderr);
  const tiny = await makeReleaseDir(join(ctx.root, "tiny"), { component: "mc", releaseId: id, platforms });
  const big = await makeReleaseDir(join(ctx.root, "big"), { component: "mc", releaseId: id, platforms });
  const block = Buffer.alloc(1024 * 1024);
  for (const [i, platform] of platforms.entries()) {
    const file = await open(join(big, platform, platform.startsWith("windows") ? "mc.exe" : "mc"), "w");
    for (let m = 0; m < binaryMiB; m++) await file.write(block.fill(i * 64 + m));
    await file.close();
  }
  const base = publishPeakMiB(ctx, tiny, join(ctx.root, "store-tiny"));
  const peak = publishPeakMiB(ctx, big, join(ctx.root, "store-big"));
  assert.ok(peak - base < 2 * binaryMiB, `peak ${peak.toFixed(0)} MiB against ${base.toFixed(0)} MiB for tiny binaries: more than one ${binaryMiB} MiB binary held`);
  // The bytes arrived whole, as sha256sum sees them.
  const archive = join(ctx.root, "store-big/client/mc/release/linux-ppc64le/archive");
  const check = spawnSync("sha256sum", ["-c", `mc.${id}.sha256sum`], { cwd: archive, encoding: "utf8" });
  assert.is(check.status, 0, check.stderr);
});

memory.run();
