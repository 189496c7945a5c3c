// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// Issue 17: every publish recipe of README.md and docs/ runs verbatim against
// the deployment it names (the embedded default, the launcher's cluster) and
// the release shows in that deployment's API; the launcher (Found 4) serves
// /minisign.pub and the sample catalog of `npm start` from its first `up`.
// Recipes are run by bash as written, in a folder holding `dist/` and
// `licenses.json`; `npx` and `npm` are the repository's (as for a user in the
// clone), nothing else is added. Compose recipes need Docker: not run here.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { runSbom, sampleReleases } from "@mc/releases";
import { freePort } from "../harness/free-port.js";
import { startProcess, type Started } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";
import { goModules, licenses } from "../releases/release-dir.js";
import { seedReleaseTime } from "../../scripts/release/seed-mc.js";
import { cluster, killClusterOnExit, readState, repoRoot } from "./ops-harness.js";

interface Recipe {
  readonly file: string;
  readonly text: string;
}

/** Every fenced sh block of README.md and docs/*.md that publishes. */
async function recipes(): Promise<Recipe[]> {
  const files = ["README.md", ...(await readdir(join(repoRoot, "docs"))).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
  const out: Recipe[] = [];
  for (const file of files) {
    const text = await readFile(join(repoRoot, file), "utf8");
    for (const m of text.matchAll(/```sh\n([\s\S]*?)```/g)) if (m[1]?.includes("releases publish")) out.push({ file, text: m[1] });
  }
  return out;
}

const deploymentOf = (r: Recipe): "embedded" | "launcher" | "compose" => (r.text.includes("docker compose") ? "compose" : r.text.includes("--nats") ? "launcher" : "embedded");
const id = "RELEASE.2026-11-20T10-00-00Z";

/** A user's working folder: dist/ with binaries, notes and Go modules (the recipe makes the SBOMs), licenses.json. */
async function workFolder(root: string, name: string): Promise<string> {
  const cwd = join(root, name);
  for (const p of ["linux-amd64", "windows-amd64"]) {
    await mkdir(join(cwd, "dist", p), { recursive: true });
    await writeFile(join(cwd, "dist", p, p.startsWith("windows") ? "mc.exe" : "mc"), `mc ${id} ${p}\n`.repeat(100));
  }
  await writeFile(join(cwd, "dist", `release-notes-${id}.md`), `# mc ${id}\n\nFrom the recipe.\n`);
  await writeFile(join(cwd, "dist", `gomod-${id}.txt`), goModules);
  await writeFile(join(cwd, "licenses.json"), JSON.stringify(licenses));
  return cwd;
}

async function runRecipe(recipe: Recipe, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  // A recipe without the SBOM step starts from a dist/ that has them (the README's first step).
  const has = (await readdir(join(cwd, "dist"))).some((n) => n.startsWith("sbom-"));
  if (!recipe.text.includes("releases sbom") && !has) await runSbom({ from: join(cwd, "dist", `gomod-${id}.txt`), licenses: join(cwd, "licenses.json"), component: "mc", releaseId: id });
  // `npx releases` and `npm run` resolve in the clone, as for a user standing in it.
  const prelude = `set -euo pipefail\nnpx() { "${repoRoot}/node_modules/.bin/$@"; }\nnpm() { (cd "${repoRoot}" && command npm "$@"); }\n`;
  const r = spawnSync("bash", ["-c", prelude + recipe.text], { cwd, env, encoding: "utf8", timeout: 180_000 });
  assert.is(r.status, 0, `${recipe.file}:\n${recipe.text}\n${r.stdout}\n${r.stderr}`);
}

async function latestId(base: string): Promise<string> {
  const res = await fetch(`${base}/api/releases/client/latest`);
  return ((await res.json()) as Array<{ release_id: string }>)[0]?.release_id ?? "";
}

const newestSample = sampleReleases.filter((r) => r.product === "client").map((r) => r.releaseId).sort().at(-1) ?? "";
/** npm start's and the launcher's newest client release: this checkout's real mc after the samples (issue 23, scripts/release/seed-mc.ts). */
const startsNewest = (id: string): boolean => id.startsWith(`${seedReleaseTime}.hotfix.`) && seedReleaseTime > newestSample;

const recipesSuite = suite<{ root: string; gateway: Started | undefined; clusterEnv: NodeJS.ProcessEnv }>("publish recipes", { root: "", gateway: undefined, clusterEnv: {} });

recipesSuite.before(async (ctx) => {
  ctx.root = await mkdtemp(join(tmpdir(), "publish-recipes-"));
});
recipesSuite.after(async (ctx) => {
  await ctx.gateway?.stop();
  if (ctx.clusterEnv.MC_CLUSTER_DIR) await cluster(["down"], ctx.clusterEnv).catch(() => undefined);
  await rm(ctx.root, { recursive: true, force: true });
});

recipesSuite("should find recipes for the embedded default and the launcher", async () => {
  const kinds = (await recipes()).map(deploymentOf);
  assert.ok(kinds.includes("embedded") && kinds.includes("launcher"), kinds.join(", "));
});

recipesSuite("should run every embedded-default recipe verbatim against a running `npm start` (DATA_DIR)", async (ctx) => {
  const dataDir = join(ctx.root, "data");
  const port = await freePort();
  const env = { ...process.env, DATA_DIR: dataDir, NATS_URL: "", RELEASES_STORE: "", RELEASES_SIGNING_KEY: "" };
  ctx.gateway = startProcess(process.execPath, [join(repoRoot, "app/bin/gateway.js"), "--listen", `127.0.0.1:${port}`, "--kms-listen", "off"], { env });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(() => fetch(`${base}/healthz`).then((r) => r.ok), { what: `gateway: ${ctx.gateway?.output()}`, timeoutMs: 60000 });
  for (const [i, recipe] of (await recipes()).filter((r) => deploymentOf(r) === "embedded").entries()) {
    assert.ok(startsNewest(await latestId(base)), await latestId(base));
    await runRecipe(recipe, await workFolder(ctx.root, `embedded-${i}`), env);
    await waitFor(async () => (await latestId(base)) === id, { what: `${id} in the embedded API`, timeoutMs: 2000 });
  }
});

recipesSuite("should start the launcher with a signing key and the sample catalog (Found 4), and run every launcher recipe verbatim against it", async (ctx) => {
  const dir = join(ctx.root, "cluster");
  ctx.clusterEnv = { ...process.env, MC_CLUSTER_DIR: dir, MC_CLUSTER_PORTS: "auto", KMS_HSM_KEY: "", NATS_URL: "" };
  killClusterOnExit(dir);
  const up = await cluster(["up"], ctx.clusterEnv);
  assert.is(up.code, 0, up.stderr);
  const { ports } = await readState(dir);
  const base = `http://127.0.0.1:${ports.gateway}`;
  // Every gateway of the deployment (the launcher starts two).
  const bases = [ports.gateway, ports.gateway2].map((p) => `http://127.0.0.1:${p}`);
  const pub = await fetch(`${base}/minisign.pub`);
  assert.is(pub.status, 200, "no /minisign.pub");
  assert.match(await pub.text(), /^untrusted comment: minisign public key [0-9A-F]{16}\n/);
  for (const b of bases) assert.ok(startsNewest(await latestId(b)), `${b}: not the catalog of npm start`);
  // One dist/ for all: a second recipe publishing the same bytes is the idempotent no-op (other bytes would be 409).
  const cwd = await workFolder(ctx.root, "launcher");
  for (const recipe of (await recipes()).filter((r) => deploymentOf(r) === "launcher")) {
    await runRecipe(recipe, cwd, ctx.clusterEnv);
    // Both at once, from the moment the recipe returned: within 2 s on each.
    await Promise.all(bases.map((b) => waitFor(async () => (await latestId(b)) === id, { what: `${id} in the API of ${b}`, timeoutMs: 2000 })));
    for (const b of bases) {
      const bin = await fetch(`${b}/client/mc/release/linux-amd64/mc`);
      assert.match(await bin.text(), `mc ${id} linux-amd64`);
    }
  }
});

recipesSuite.run();
