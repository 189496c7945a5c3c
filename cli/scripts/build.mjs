// Bundles src/main.ts into dist/mc.cjs with esbuild so `mc` starts without a
// TypeScript loader. bin/mc.js calls this on first run and whenever a source
// file is newer than the bundle; `npm run build -w @mc/cli` does it by hand.
// `node scripts/build.mjs --release RELEASE.<id> --out FILE [--commit SHA] [--minisign-pubkey FILE]`
// writes a release build instead: one self-contained file that knows its
// release id (what `mc update` replaces; contracts/mc.md §9); with
// `--metafile FILE` it also writes esbuild's metafile (which sources went in:
// tests/mc/bundle-contents.test.ts checks no NATS or server code does).
import { chmodSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { commandsIndexSource, indexFile } from "./commands-index.mjs";
import { lazyRegistryPlugin, readManifest } from "./lazy-registry.mjs";
import { sdkBucketNames } from "./sdk-bucket-names.mjs";
import { slimDeps } from "./slim-deps.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Parts loaded only by some commands: their own bundles, required by mc.cjs at run time. */
const lazyParts = [
  // The KMS client with its X.509 library (`mc admin kms`).
  { name: "kms", source: join(root, "src", "kms", "kms-lib.ts"), filter: /\/kms-lib\.js$/ },
  // The minisign verifier with libsodium's WebAssembly (`mc update` with a key).
  { name: "minisign", source: join(root, "src", "update", "minisign-lib.ts"), filter: /\/minisign-lib\.js$/ },
  // MinIO's admin payload crypto on the crypto core (admin commands with encrypted bodies).
  { name: "madmin-crypto", source: join(root, "src", "minio-admin", "payload-crypto-lib.ts"), filter: /\/payload-crypto-lib\.js$/ },
];

function baseOptions() {
  return {
    bundle: true,
    platform: "node",
    // CommonJS so bin/mc.js can compile it through vm.Script with a code cache
    // (Node 20 has no compile cache for ES modules; compiling is most of start-up).
    format: "cjs",
    target: "node20",
    minify: process.env.MC_BUILD_MINIFY !== "0",
    legalComments: "none",
    logLevel: "error",
  };
}

// The registry is what the command files are, even before src/commands/index.ts
// is regenerated: a new command file is in the next bundle.
const registry = {
  name: "mc-commands-registry",
  setup(b) {
    b.onLoad({ filter: /[\\/]commands[\\/]index\.ts$/ }, (args) => (args.path === indexFile ? { contents: commandsIndexSource(), loader: "ts" } : undefined));
  },
};

const lazy = {
  name: "mc-lazy-parts",
  setup(b) {
    for (const part of lazyParts) {
      b.onResolve({ filter: part.filter }, () => ({ path: part.name, namespace: "mc-lazy" }));
      b.onResolve({ filter: new RegExp(`^\\./${part.name}\\.cjs$`) }, () => ({ path: `./${part.name}.cjs`, external: true }));
    }
    b.onLoad({ filter: /.*/, namespace: "mc-lazy" }, (args) => ({ contents: `module.exports = require("./${args.path}.cjs");`, loader: "js" }));
  },
};

/** For reading the registry at build time: the lazy parts stand empty (their files are not built yet). */
const stubParts = {
  name: "mc-stub-parts",
  setup(b) {
    for (const part of lazyParts) b.onResolve({ filter: part.filter }, () => ({ path: part.name, namespace: "mc-stub" }));
    b.onLoad({ filter: /.*/, namespace: "mc-stub" }, () => ({ contents: "module.exports = {};", loader: "js" }));
  },
};

/** The lazy registry plugin for this source tree (reads the command classes once). */
async function commandRegistry(esbuild, dir) {
  return lazyRegistryPlugin(await readManifest(esbuild, baseOptions(), [registry, stubParts, deferred], dir));
}

/** The `--version` program (src/version-main.ts): what a single executable runs for `mc --version`. */
export const versionEntry = join(root, "src", "version-main.ts");

export async function build() {
  const { build: esbuild } = await import("esbuild");
  const dist = join(root, "dist");
  const temp = join(dist, `.build-${process.pid}`);
  mkdirSync(temp, { recursive: true });
  await esbuild({
    ...baseOptions(),
    entryPoints: {
      mc: join(root, "src", "main.ts"),
      version: join(root, "src", "version-main.ts"),
      ...Object.fromEntries(lazyParts.map((p) => [p.name, p.source])),
    },
    outdir: temp,
    outExtension: { ".js": ".cjs" },
    plugins: [registry, lazy, slimDeps, sdkBucketNames, await commandRegistry(esbuild, temp)],
  });
  // Atomic: a concurrent mc never loads a half-written bundle (the version entry first: mc.cjs marks freshness).
  rmSync(join(dist, "mc.cjs.cache"), { force: true });
  renameSync(join(temp, "version.cjs"), join(dist, "version.cjs"));
  for (const part of lazyParts) renameSync(join(temp, `${part.name}.cjs`), join(dist, `${part.name}.cjs`));
  renameSync(join(temp, "mc.cjs"), join(dist, "mc.cjs"));
  rmSync(temp, { recursive: true, force: true });
  return join(dist, "mc.cjs");
}

/** The key line of a minisign public key file (`--minisign-pubkey FILE`): what `mc update` verifies against. */
export function publisherKeyLine(file) {
  if (file === undefined) return "";
  const line = readFileSync(file, "utf8").split("\n").map((l) => l.trim()).find((l) => /^[A-Za-z0-9+/]{50,}={0,2}$/.test(l));
  if (line === undefined) throw new Error(`${file} holds no minisign public key`);
  return line;
}

/**
 * Source files loaded only when first called (issue 23's start-up): their
 * importers get a stand-in exporting the same functions, each of which
 * require()s the real file on its first call, so esbuild wraps it (and what
 * only it imports: the S3 SDK with lodash, xml2js and mime-db) in a lazy init.
 * A file listed here may export functions (and types) only.
 */
const deferredModules = [
  join(root, "src", "storage", "s3", "s3-client.ts"),
  // The S3 SDK itself: a bucket's GET or HEAD (`mc ls ALIAS/BUCKET`) goes out without it (s3-direct.ts).
  join(root, "src", "storage", "s3", "s3-sdk-client.ts"),
  // node's zlib, crypto and stream (checksums, reads, uploads): not for commands that touch no bucket.
  join(root, "src", "storage", "s3", "s3-store.ts"),
  // node's dns and net, for --resolve only.
  join(root, "src", "storage", "s3", "resolve.ts"),
  // node's http and https, for the update notifier's request of the day only.
  join(root, "src", "update", "ask-folder.ts"),
];

const deferred = {
  name: "mc-deferred-modules",
  setup(b) {
    b.onResolve({ filter: /\?mc-real$/ }, (args) => ({ path: args.path.replace(/\?mc-real$/, "") }));
    b.onResolve({ filter: /\.js$/ }, (args) => {
      if (args.namespace !== "file" || !args.path.startsWith(".")) return undefined;
      const file = resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts"));
      return deferredModules.includes(file) ? { path: file, namespace: "mc-deferred" } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: "mc-deferred" }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const names = [...source.matchAll(/^export (?:async )?function (\w+)/gm)].map((m) => m[1]);
      const others = [...source.matchAll(/^export (?!(?:async )?function |interface |type |declare )(\S+ \S+)/gm)].map((m) => m[1]);
      if (others.length > 0) throw new Error(`${args.path}: a deferred module exports functions only, not ${others.join(", ")}`);
      const real = `const load = () => require(${JSON.stringify(`${args.path}?mc-real`)});`;
      return { contents: [real, ...names.map((n) => `export function ${n}(...a) { return load().${n}(...a); }`)].join("\n"), loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

/**
 * A release build: everything in one executable CommonJS file with the release id compiled in.
 * With `partsDir` (the single executable), the lazy parts stay out of it: each is written there as
 * NAME.cjs, the bundle require()s "./NAME.cjs" (sea-loader.cjs answers from the executable), and the
 * metafile covers them too. Returns the parts written, [{ name, file }].
 */
export async function buildRelease({ release, out, commit = "", metafile, minisignPubkey = "", sea = false, entry = join(root, "src", "main.ts"), partsDir }) {
  if (!/^RELEASE\.\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z(\.[A-Za-z0-9]+){0,2}$/.test(release)) throw new Error(`not a release id: ${release}`);
  const { build: esbuild } = await import("esbuild");
  const file = resolve(out);
  const temp = `${file}.build-${process.pid}`;
  const define = {
    MC_BUILD_RELEASE: JSON.stringify(release),
    MC_BUILD_COMMIT: JSON.stringify(commit),
    MC_BUILD_MINISIGN_PUBKEY: JSON.stringify(minisignPubkey),
    // The single executable is its own interpreter (`mc update` runs and replaces process.execPath).
    MC_BUILD_SEA: JSON.stringify(sea ? "1" : ""),
  };
  const result = await esbuild({
    ...baseOptions(),
    entryPoints: [entry],
    outfile: temp,
    // CommonJS, so it must not sit under a package.json with "type": "module"
    // (Node would load it as ESM and fail); ESM output would exit 0 silently
    // under "type": "commonjs", which is worse. Issue 23's single executable
    // ends the dependency on the folder.
    // A single executable's main script is no file node is asked to run: no #! line.
    ...(sea ? {} : { banner: { js: "#!/usr/bin/env node" } }),
    define,
    plugins: [registry, deferred, slimDeps, sdkBucketNames, ...(partsDir === undefined ? [] : [lazy]), await commandRegistry(esbuild, dirname(file))],
    metafile: metafile !== undefined,
  });
  const parts = [];
  for (const part of partsDir === undefined ? [] : lazyParts) {
    const partFile = join(partsDir, `${part.name}.cjs`);
    const built = await esbuild({ ...baseOptions(), entryPoints: [part.source], outfile: partFile, define, plugins: [deferred, slimDeps, sdkBucketNames], metafile: metafile !== undefined });
    if (metafile !== undefined) {
      Object.assign(result.metafile.inputs, built.metafile.inputs);
      Object.assign(result.metafile.outputs, built.metafile.outputs);
    }
    parts.push({ name: part.name, file: partFile });
  }
  if (metafile !== undefined) writeFileSync(metafile, JSON.stringify(result.metafile));
  chmodSync(temp, 0o755);
  renameSync(temp, file);
  return parts;
}

// Run as a program also through a symbolic link (node resolves the module to its real path).
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { release: { type: "string" }, out: { type: "string" }, commit: { type: "string" }, metafile: { type: "string" }, "minisign-pubkey": { type: "string" } } });
  if (values.release !== undefined) {
    if (values.out === undefined) throw new Error("--release needs --out FILE");
    await buildRelease({ release: values.release, out: values.out, commit: values.commit ?? "", metafile: values.metafile, minisignPubkey: publisherKeyLine(values["minisign-pubkey"]) });
  } else await build();
}
