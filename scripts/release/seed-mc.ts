// The real mc in the catalog the embedded default (`npm start`) and the
// cluster launcher start with: after the sample catalog, the single
// executable of this checkout is published through the same path
// (runPublish) as the newest client/mc release, real for linux-amd64, with
// clearly labelled sample bytes for the platforms this machine cannot build.
// Building takes tens of seconds, so the build (without a publisher key) is
// cached by a hash of the CLI sources under node_modules/.cache/mc-sea; each
// deployment only appends its own key (sea-build.mjs's trailer) and publishes.
import { appendFile, cp, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { runPublish, type CatalogEvents, type ReleaseStore } from "@mc/releases";
import { initCrypto, minisignPublicKeyLine, minisignPublicKeyOf, parseMinisignSecretKey } from "@mc/wasm";
import { buildMcRelease, buildPlatform, canBuild, cliSourceHash, repoRoot } from "./mc-release.js";

/** After the sample catalog's newest client release, before any id the README's recipes publish. */
export const seedReleaseTime = "RELEASE.2026-11-19T00-00-00Z";
const samplePlatforms = ["linux-arm64", "linux-ppc64le", "windows-amd64"];

export const seedReleaseId = (sourceHash: string): string => `${seedReleaseTime}.hotfix.${sourceHash.slice(0, 12)}`;

export const seaCacheDir = (): string => process.env["MC_SEA_CACHE"] || join(repoRoot, "node_modules", ".cache", "mc-sea");

const sampleBytes = (platform: string, id: string): string =>
  `SAMPLE BYTES, NOT AN MC BUILD: mc ${id} for ${platform} is not built on this machine (only ${buildPlatform} is). This file only fills the platform's place in the catalog.\n`;

const notes = `Only ${buildPlatform} is a real build. The files for ${samplePlatforms.join(", ")} in this release are labelled SAMPLE BYTES, not mc builds.`;

/** The cached keyless release directory for these sources, built when missing. */
export async function cachedMcRelease(log: (line: string) => void): Promise<{ dir: string; releaseId: string }> {
  const hash = cliSourceHash();
  const releaseId = seedReleaseId(hash);
  const root = seaCacheDir();
  const dir = join(root, hash.slice(0, 32));
  if (await stat(join(dir, buildPlatform, "mc")).then(() => true, () => false)) return { dir, releaseId };
  log(`building the mc single executable ${releaseId} (once per change of the CLI sources; cached in ${root})`);
  await mkdir(root, { recursive: true });
  const temp = await mkdtemp(join(root, ".build-"));
  try {
    await buildMcRelease({ releaseId, outDir: temp, notes });
    // Two builders of one hash: the first rename wins, the second build is dropped.
    await rename(temp, dir).catch(async () => rm(temp, { recursive: true, force: true }));
  } catch (err) {
    await rm(temp, { recursive: true, force: true });
    throw err;
  }
  // Older builds (other sources) are ~90 MB each and never used again.
  for (const name of await readdir(root)) if (name !== dir.split("/").pop() && !name.startsWith(".")) await rm(join(root, name), { recursive: true, force: true });
  return { dir, releaseId };
}

export interface SeedOptions {
  readonly store: ReleaseStore;
  /** The deployment's minisign secret key (written by the sample catalog's publish). */
  readonly keyFile: string;
  readonly events?: CatalogEvents;
  readonly log: (line: string) => void;
}

/** Publishes this checkout's mc as the newest client/mc release; returns one line for the log or banner. */
export async function publishRealMc(o: SeedOptions): Promise<string> {
  const why = canBuild();
  if (why !== undefined) return `mc: no single executable (${why}); client/mc keeps the sample bytes`;
  let cached;
  try {
    cached = await cachedMcRelease(o.log);
  } catch (err) {
    return `mc: the single executable did not build (${(err instanceof Error ? err.message : String(err)).split("\n")[0]}); client/mc keeps the sample bytes`;
  }
  const work = await mkdtemp(join(tmpdir(), "mc-seed-"));
  try {
    await cp(cached.dir, work, { recursive: true });
    await initCrypto();
    const keyLine = minisignPublicKeyLine(minisignPublicKeyOf(parseMinisignSecretKey(await readFile(o.keyFile, "utf8"))));
    await appendFile(join(work, buildPlatform, "mc"), `\nmc-publisher-key ${keyLine}\n`);
    for (const p of samplePlatforms) {
      await mkdir(join(work, p), { recursive: true });
      await writeFile(join(work, p, p.startsWith("windows-") ? "mc.exe" : "mc"), sampleBytes(p, cached.releaseId));
    }
    const r = await runPublish({ store: o.store, keyFile: o.keyFile, product: "client", component: "mc", releaseId: cached.releaseId, from: work, ...(o.events ? { events: o.events } : {}) });
    return r.unchanged ? `mc: ${cached.releaseId} (real ${buildPlatform} build) already published` : `mc: published ${cached.releaseId} (real ${buildPlatform} single executable; other platforms labelled sample bytes)`;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
