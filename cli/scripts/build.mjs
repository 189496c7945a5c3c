// Bundles src/main.ts into dist/mc.cjs with esbuild so `mc` starts without a
// TypeScript loader. bin/mc.js calls this on first run and whenever a source
// file is newer than the bundle; `npm run build -w @mc/cli` does it by hand.
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

export async function build() {
  const { build: esbuild } = await import("esbuild");
  const dist = join(root, "dist");
  const temp = join(dist, `.build-${process.pid}`);
  mkdirSync(temp, { recursive: true });
  await esbuild({
    entryPoints: { mc: join(root, "src", "main.ts"), version: join(root, "src", "version-main.ts") },
    outdir: temp,
    outExtension: { ".js": ".cjs" },
    bundle: true,
    platform: "node",
    // CommonJS so bin/mc.js can compile it through vm.Script with a code cache
    // (Node 20 has no compile cache for ES modules; compiling is most of start-up).
    format: "cjs",
    target: "node20",
    minify: true,
    legalComments: "none",
    logLevel: "error",
    // The CLI only needs AppError from @mc/shared; its index also loads the NATS
    // bus and Connect code (~150 KB parsed on every start), so point at the one file.
    plugins: [
      {
        name: "mc-shared-app-error",
        setup(b) {
          b.onResolve({ filter: /^@mc\/shared$/ }, () => ({ path: join(root, "..", "services", "shared", "src", "app-error.ts") }));
        },
      },
    ],
  });
  // Atomic: a concurrent mc never loads a half-written bundle (the version entry first: mc.cjs marks freshness).
  rmSync(join(dist, "mc.cjs.cache"), { force: true });
  renameSync(join(temp, "version.cjs"), join(dist, "version.cjs"));
  renameSync(join(temp, "mc.cjs"), join(dist, "mc.cjs"));
  rmSync(temp, { recursive: true, force: true });
  return join(dist, "mc.cjs");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build();
