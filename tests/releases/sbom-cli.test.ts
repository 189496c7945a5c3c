import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createSbomValidator } from "../../services/releases/src/adapters/sbom-validator.js";

// Issue 17, Found 5: `releases sbom` as an operator runs it, through the real CLI.
const cli = fileURLToPath(new URL("../../services/releases/bin/releases.js", import.meta.url));
const id = "RELEASE.2026-11-20T10-00-00Z";
const goModules = "example.com/main\ngithub.com/x/y v1.0.0\ngithub.com/z/w v0.2.0\n";

interface Ctx {
  dir: string;
}
const sbom = suite<Ctx>("releases sbom", { dir: "" });

sbom.before.each(async (ctx) => {
  ctx.dir = await mkdtemp(join(tmpdir(), "sbom-cli-"));
  await writeFile(join(ctx.dir, "gomod.txt"), goModules);
});
sbom.after.each(async (ctx) => {
  await rm(ctx.dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function sbomWith(ctx: Ctx, licenses: Record<string, string>, extra: readonly string[] = []): Promise<Run> {
  await writeFile(join(ctx.dir, "licenses.json"), JSON.stringify(licenses));
  return run(["sbom", "--from", "gomod.txt", "--licenses", "licenses.json", "--component", "mc", "--release", id, ...extra], ctx.dir);
}

/** A failure is one line on stderr, a non-zero exit, no stack frame. */
function assertOneLineFailure(r: Run, expected: string): void {
  assert.is.not(r.code, 0, `exit code ${String(r.code)}`);
  assert.ok(r.code !== null && r.code > 0);
  const lines = r.stderr.trimEnd().split("\n");
  assert.is(lines.length, 1, `stderr: ${r.stderr}`);
  assert.not.match(r.stderr, /^\s+at /m);
  assert.not.match(r.stderr, "internal error");
  assert.match(lines[0] ?? "", expected);
}

const sbomFiles = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((f) => f.startsWith("sbom-")).sort();

sbom("should refuse a license that is not an SPDX id, naming the module and the value, and write nothing", async (ctx) => {
  const r = await sbomWith(ctx, { "example.com/main": "Apache-2.0", "github.com/x/y": "Foo", "github.com/z/w": "AGPL" });
  assertOneLineFailure(r, "releases: license 'Foo' of module 'github.com/x/y' is not an SPDX license id");
  assert.match(r.stderr, "license 'AGPL' of module 'github.com/z/w' is not an SPDX license id");
  assert.equal(await sbomFiles(ctx.dir), []);
});

sbom("should refuse a bad main-module license and a malformed expression", async (ctx) => {
  let r = await sbomWith(ctx, { "example.com/main": "Apache 2", "github.com/x/y": "MIT", "github.com/z/w": "MIT" });
  assertOneLineFailure(r, "license 'Apache 2' of module 'example.com/main'");
  r = await sbomWith(ctx, { "example.com/main": "MIT", "github.com/x/y": "MIT OR", "github.com/z/w": "MIT" });
  assertOneLineFailure(r, "license 'MIT OR' of module 'github.com/x/y'");
});

sbom("should write SBOMs that publish accepts for ids, expressions and ids newer than the CycloneDX schema", async (ctx) => {
  const r = await sbomWith(ctx, { "example.com/main": "Apache-2.0", "github.com/x/y": "MIT OR Apache-2.0", "github.com/z/w": "Bugroff" });
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stderr, "");
  assert.equal(await sbomFiles(ctx.dir), [`sbom-${id}.cyclonedx.json`, `sbom-${id}.spdx.json`]);
  const validate = await createSbomValidator();
  for (const kind of ["cyclonedx", "spdx"] as const) {
    const file = join(ctx.dir, `sbom-${id}.${kind}.json`);
    validate(kind, JSON.parse(await readFile(file, "utf8")), file);
  }
});

sbom("should allow NOASSERTION, with a warning that publish needs a license", async (ctx) => {
  const r = await sbomWith(ctx, { "example.com/main": "Apache-2.0", "github.com/x/y": "NOASSERTION", "github.com/z/w": "MIT" });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stderr, "releases: warning: license of module 'github.com/x/y' is NOASSERTION");
  const validate = await createSbomValidator();
  const file = join(ctx.dir, `sbom-${id}.cyclonedx.json`);
  // The schema takes it; only the component check (contract §7.2.1) refuses it, by name.
  const doc: unknown = JSON.parse(await readFile(file, "utf8"));
  assert.throws(() => validate("cyclonedx", doc, file), /github\.com\/x\/y \(missing license\)/);
});

sbom("should document the --licenses file in --help", async (ctx) => {
  const r = await run(["sbom", "--help"], ctx.dir);
  assert.is(r.code, 0);
  assert.match(r.stdout, "--licenses FILE");
  assert.match(r.stdout, "a JSON object from module path to license");
  assert.match(r.stdout, '"github.com/a/lib": "MIT"');
  assert.match(r.stdout, "NOASSERTION");
  assert.match(r.stdout, "SPDX expression");
  const top = await run(["--help"], ctx.dir);
  assert.match(top.stdout, "releases sbom --help");
});

sbom("should fail in one line with a non-zero exit on a missing, unwritable or non-folder --out", async (ctx) => {
  const licenses = { "example.com/main": "Apache-2.0", "github.com/x/y": "MIT", "github.com/z/w": "MIT" };
  assertOneLineFailure(await sbomWith(ctx, licenses, ["--out", join(ctx.dir, "missing", "folder")]), "--out");
  assertOneLineFailure(await sbomWith(ctx, licenses, ["--out", join(ctx.dir, "gomod.txt")]), "not a directory");
  // Root ignores mode bits, so an unwritable folder for everyone: /proc refuses new files.
  assertOneLineFailure(await sbomWith(ctx, licenses, ["--out", "/proc"]), "releases: sbom:");
  assert.equal(await sbomFiles(ctx.dir), []);
});

sbom("should fail in one line with a non-zero exit for every other sbom mistake", async (ctx) => {
  assertOneLineFailure(await run(["sbom", "--from", "nope.txt", "--licenses", "l.json", "--component", "mc", "--release", id], ctx.dir), "cannot read nope.txt");
  await writeFile(join(ctx.dir, "bad.json"), "[1]");
  assertOneLineFailure(await run(["sbom", "--from", "gomod.txt", "--licenses", "bad.json", "--component", "mc", "--release", id], ctx.dir), "bad.json: not a JSON object");
  assertOneLineFailure(await sbomWith(ctx, { "example.com/main": "MIT" }), "no license given for: github.com/x/y, github.com/z/w");
  assertOneLineFailure(await sbomWith(ctx, { "example.com/main": "MIT" }, ["--release", "RELEASE.2024-13-40T25-00-00Z"]), "RELEASE.2024-13-40T25-00-00Z");
  assertOneLineFailure(await run(["sbom", "--from", "gomod.txt", "--licenses", "bad.json", "--component", "Bad Name", "--release", id], ctx.dir), "invalid component 'Bad Name'");
});

sbom.run();
