#!/usr/bin/env node
// Starts the esbuild bundle (dist/kms.mjs, see scripts/build.mjs): built on
// the first run and rebuilt when a source file is newer, so `npx kms` works
// right after `npm ci` with no build step. Without esbuild, or with
// KMS_NO_BUNDLE=1, it runs the TypeScript sources through tsx's loader.
import { existsSync, readdirSync, statSync } from "node:fs";
import { pathToFileURL } from "node:url";

const { build, bundleFile, sourceDirs } = await import("../scripts/build.mjs");

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!entry.name.endsWith(".test.ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function fresh() {
  try {
    const built = statSync(bundleFile).mtimeMs;
    return sourceDirs.every((dir) => !existsSync(dir) || built >= newestSource(dir));
  } catch {
    return false;
  }
}

let bundled = process.env.KMS_NO_BUNDLE !== "1" && ((process.env.KMS_BUNDLE_FRESH === "1" && existsSync(bundleFile)) || fresh());
if (!bundled && process.env.KMS_NO_BUNDLE !== "1") {
  try {
    await build();
    bundled = true;
  } catch {
    bundled = false;
  }
}
if (bundled) await import(pathToFileURL(bundleFile).href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/main.ts");
}
