// Builds an mc release directory in the layout `releases publish` takes
// (contracts/releases.md §8): linux-amd64/mc, the single executable of
// cli/scripts/sea-build.mjs, and its four documents generated from the
// bundle that went into it.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { bundledPackages, type BundledPackage } from "./bundle-packages.js";
import { cyclonedxDocument, moduleList, releaseNotes, sha256, spdxDocument } from "./documents.js";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const seaBuildScript = join(repoRoot, "cli", "scripts", "sea-build.mjs");
/** The one platform this machine builds. */
export const buildPlatform = "linux-amd64";
const tool = "mc-release-pipeline-0.1.0";

/** The source folders whose files decide the executable's bytes. */
const sourceDirs = ["cli/src", "cli/scripts", "services/shared/src", "services/kms/src", "wasm/src"];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith(".test.ts") ? [] : [join(dir, e.name)]))
    .sort();
}

/** A hash of everything a build reads: the sources, the lockfile and this node (the executable is made of it). */
export function cliSourceHash(): string {
  const files = [...sourceDirs.flatMap((d) => filesUnder(join(repoRoot, d))), join(repoRoot, "package-lock.json")];
  return sha256([process.version, process.arch, ...files.flatMap((f) => [relative(repoRoot, f), "\0", readFileSync(f), "\0"])]);
}

/** Can this checkout build the executable? (esbuild and postject are devDependencies; SEA needs Linux x64 here.) */
export function canBuild(): string | undefined {
  if (`${process.platform}-${process.arch}` !== "linux-x64") return `single executables are built on linux-amd64 only, this is ${process.platform}-${process.arch}`;
  for (const pkg of ["esbuild", "postject"]) {
    try {
      statSync(join(repoRoot, "node_modules", pkg, "package.json"));
    } catch {
      return `${pkg} is not installed (a devDependency: npm ci installs it)`;
    }
  }
  return undefined;
}

function cyclonedxLicenseIds(): Set<string> {
  const schema = JSON.parse(readFileSync(join(repoRoot, "services/releases/schemas/cyclonedx/spdx.schema.json"), "utf8")) as { enum?: string[] };
  return new Set(schema.enum ?? []);
}

export interface McReleaseOptions {
  readonly releaseId: string;
  /** The release directory to write (created; an existing one is replaced). */
  readonly outDir: string;
  readonly commit?: string;
  /** The publisher's minisign public key line, appended to the executable. */
  readonly keyLine?: string;
  /** More Markdown for the notes. */
  readonly notes?: string;
  /** A signal ends the child build. */
  readonly signal?: AbortSignal;
}

export interface McRelease {
  readonly dir: string;
  readonly binary: string;
  readonly packages: readonly BundledPackage[];
  readonly sourceHash: string;
}

/** Builds the executable and writes the four documents beside it. */
export async function buildMcRelease(o: McReleaseOptions): Promise<McRelease> {
  const why = canBuild();
  if (why !== undefined) throw new Error(`cannot build the mc executable: ${why}`);
  const dir = resolve(o.outDir);
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, buildPlatform), { recursive: true });
  const binary = join(dir, buildPlatform, "mc");
  const metafile = join(dir, ".metafile.json");
  const sourceHash = cliSourceHash();
  const args = [seaBuildScript, "--release", o.releaseId, "--out", binary, "--metafile", metafile, "--commit", o.commit ?? sourceHash.slice(0, 12)];
  if (o.keyLine !== undefined) {
    await writeFile(join(dir, ".publisher.pub"), `${o.keyLine}\n`);
    args.push("--minisign-pubkey", join(dir, ".publisher.pub"));
  }
  // esbuild writes metafile inputs relative to its working directory: the repository root.
  await promisify(execFile)(process.execPath, args, { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024, ...(o.signal ? { signal: o.signal } : {}) });
  const inputs = Object.keys((JSON.parse(await readFile(metafile, "utf8")) as { inputs: Record<string, unknown> }).inputs);
  await rm(metafile);
  await rm(join(dir, ".publisher.pub"), { force: true });
  const all = bundledPackages(repoRoot, inputs);
  const main = all.find((p) => p.dir === "cli");
  if (main === undefined) throw new Error("the bundle holds no cli/ sources");
  const packages = all.filter((p) => p !== main);
  const facts = { releaseId: o.releaseId, main, packages, node: { version: process.versions.node, license: "MIT" }, now: new Date(), uuid: randomUUID(), cyclonedxLicenseIds: cyclonedxLicenseIds(), tool };
  const id = o.releaseId;
  await writeFile(join(dir, `sbom-${id}.cyclonedx.json`), `${JSON.stringify(cyclonedxDocument(facts), null, 2)}\n`);
  await writeFile(join(dir, `sbom-${id}.spdx.json`), `${JSON.stringify(spdxDocument(facts), null, 2)}\n`);
  await writeFile(join(dir, `gomod-${id}.txt`), moduleList(facts));
  const notes = { releaseId: id, platforms: [buildPlatform], nodeVersion: process.versions.node, packages: packages.length, sourceHash, ...(o.notes ? { extra: o.notes } : {}) };
  await writeFile(join(dir, `release-notes-${id}.md`), releaseNotes(notes));
  return { dir, binary, packages, sourceHash };
}
