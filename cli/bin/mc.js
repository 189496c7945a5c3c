#!/usr/bin/env node
// Starts the esbuild bundle (fast start-up). The bundle is built on first run
// and rebuilt when a source file is newer, so `mc` works right after `npm ci`
// with no build step; without esbuild it falls back to tsx on the sources.
// The bundle is compiled through vm.Script with a V8 code cache kept beside
// it: compiling ~700 KB of JavaScript is most of the start-up time otherwise.
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Script } from "node:vm";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const bundle = join(dist, "mc.cjs");
const versionBundle = join(dist, "version.cjs");

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!entry.name.endsWith(".test.ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function fresh() {
  try {
    const built = Math.min(statSync(bundle).mtimeMs, statSync(versionBundle).mtimeMs);
    // The bundle also holds the shared spine and the KMS client library.
    const sources = [join(root, "src"), join(root, "..", "services", "shared", "src"), join(root, "..", "services", "kms", "src")];
    return sources.every((dir) => built >= newestSource(dir));
  } catch {
    return false;
  }
}

/** Runs a CommonJS bundle with a code cache (written once, after the first run has compiled what it used). */
function runCached(file) {
  const cacheFile = `${file}.cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const source = readFileSync(file, "utf8");
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once("exit", () => {
      try {
        const temp = `${cacheFile}.${process.pid}`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        // A read-only install just runs without the cache.
      }
    });
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
}

const versionOnly = process.argv.length === 3 && (process.argv[2] === "--version" || process.argv[2] === "-v");
// MC_BUNDLE_FRESH=1: the caller has just built the bundle (the test runner,
// which starts mc thousands of times): skip walking the source trees.
const trusted = process.env.MC_BUNDLE_FRESH === "1" && existsSync(bundle) && existsSync(versionBundle);
let built = process.env.MC_NO_BUNDLE !== "1" && (trusted || fresh());
if (!built && process.env.MC_NO_BUNDLE !== "1") {
  try {
    const { build } = await import("../scripts/build.mjs");
    await build();
    built = true;
  } catch {
    built = false;
  }
}
if (built && versionOnly) createRequire(import.meta.url)(versionBundle);
else if (built) runCached(bundle);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(join(root, "src", "main.ts")).href);
}
