// The npm registry these machines reach lacks the other-platform binaries of
// @bufbuild/buf, so npm 11 leaves them out of package-lock.json and `npm ci`
// then refuses the lock as out of sync. This adds them back as the optional,
// platform-gated entries a normal lock has (never installed on Linux x64).
// Run after any `npm install` that rewrites the lock: node scripts/complete-lockfile.cjs
const fs = require("fs");
const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
const plat = { "darwin-arm64": ["darwin", "arm64"], "darwin-x64": ["darwin", "x64"], "linux-armv7": ["linux", "arm"], "win32-arm64": ["win32", "arm64"], "win32-x64": ["win32", "x64"] };
for (const [p, [os, cpu]] of Object.entries(plat)) {
  const key = `node_modules/@bufbuild/buf-${p}`;
  if (!lock.packages[key]) lock.packages[key] = { version: "1.75.0", cpu: [cpu], dev: true, license: "Apache-2.0", optional: true, os: [os], engines: { node: ">=12" } };
}
const sorted = {};
for (const k of Object.keys(lock.packages).sort()) sorted[k] = lock.packages[k];
lock.packages = { "": lock.packages[""], ...sorted };
fs.writeFileSync("package-lock.json", JSON.stringify(lock, null, 2) + "\n");
