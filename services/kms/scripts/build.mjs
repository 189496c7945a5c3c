// Bundles src/main.ts into dist/kms.mjs with esbuild, so `kms` starts without
// a TypeScript loader: through tsx an empty server took about 2 s to answer
// ready on this project's 2-core machines, through the bundle under 1 s, and
// every node of a cluster, every test server and every restart pays it.
// The npm packages go into the bundle too, except pkcs11js (a native addon,
// loaded from node_modules): module order must stay the sources' order, and
// esbuild hoists external imports above everything (no-color-warning.ts must
// run before clipanion loads). bin/kms.js calls this on the first run and
// whenever a source file is newer than the bundle.
import { mkdirSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const bundleFile = join(root, "dist", "kms.mjs");

/** The source trees the bundle is made of: a newer file in any of them makes it stale. */
export const sourceDirs = [
  join(root, "src"),
  join(root, "gen"),
  join(root, "..", "consensus", "src"),
  join(root, "..", "consensus", "gen"),
  join(root, "..", "shared", "src"),
  join(root, "..", "..", "wasm", "src"),
];


export async function build() {
  const { build: esbuild } = await import("esbuild");
  mkdirSync(dirname(bundleFile), { recursive: true });
  // Several servers may start at once on a stale bundle: each builds its own
  // file and renames it into place, so none reads a half-written bundle.
  const temp = `${bundleFile}.${process.pid}.tmp`;
  await esbuild({
    entryPoints: [join(root, "src", "main.ts")],
    outfile: temp,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    legalComments: "none",
    logLevel: "error",
    external: ["pkcs11js"],
    // CommonJS packages inside an ES module bundle call require() for Node's built-ins.
    banner: { js: 'import { createRequire as __kmsRequire } from "node:module"; const require = __kmsRequire(import.meta.url);' },
  });
  renameSync(temp, bundleFile);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build();
