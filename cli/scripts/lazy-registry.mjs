// The bundle's src/command-registry.ts: every command's paths and
// description written out as data, each class behind a require() that esbuild
// turns into a lazy init, so a run evaluates only the command it runs.
// The data comes from the command classes themselves: a small bundle of the
// eager registry is run once per build and prints them.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { classNameOf, commandPaths, commandsDir } from "./commands-index.mjs";

export const registryFilter = /[\\/]src[\\/]command-registry\.ts$/;

/** Paths and descriptions of every command, in command-file order, read from the built classes. */
export async function readManifest(esbuild, options, plugins, tempDir) {
  const out = join(tempDir, `.registry-dump-${process.pid}.cjs`);
  await esbuild({
    ...options,
    minify: false,
    stdin: {
      contents: `import { registry } from "./command-registry.ts";\nprocess.stdout.write(JSON.stringify(registry.map((e) => ({ paths: e.paths, description: e.usage.description }))));\n`,
      resolveDir: join(commandsDir, ".."),
      loader: "ts",
    },
    outfile: out,
    plugins,
  });
  try {
    return JSON.parse(execFileSync(process.execPath, [out], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } }));
  } finally {
    rmSync(out, { force: true });
  }
}

/** The plugin that swaps the eager registry for the lazy one. */
export function lazyRegistryPlugin(manifest) {
  const files = commandPaths();
  if (files.length !== manifest.length) throw new Error(`command registry: ${files.length} command files, ${manifest.length} classes`);
  const entries = files.map((words, i) => {
    const { paths, description } = manifest[i];
    const load = `() => require(${JSON.stringify(`./commands/${words.join("/")}.ts`)}).${classNameOf(words)}`;
    return `  { paths: ${JSON.stringify(paths)}, usage: { description: ${JSON.stringify(description)} }, load: ${load} },`;
  });
  const contents = ["export const registry = [", ...entries, "];", ""].join("\n");
  return {
    name: "mc-lazy-registry",
    setup(b) {
      b.onLoad({ filter: registryFilter }, () => ({ contents, loader: "js", resolveDir: join(commandsDir, "..") }));
    },
  };
}

