// Builds `mc` as one executable file for this machine's platform (issue 23):
// the release bundle of build.mjs (everything inlined, the release id and the
// publisher key compiled in) becomes the main script of a Node single
// executable application: `node --experimental-sea-config` writes the blob
// (with V8's code cache: compiling the bundle is most of mc's start-up), and
// postject injects it into a copy of this node. The result needs no node, npm
// or source folder beside it.
// `node scripts/sea-build.mjs --release RELEASE.<id> --out FILE [--commit SHA] [--minisign-pubkey FILE] [--metafile FILE] [--no-code-cache]`
import { execFile } from "node:child_process";
import { builtinModules, createRequire } from "node:module";
import { appendFile, chmod, copyFile, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { buildRelease, publisherKeyLine } from "./build.mjs";

const run = promisify(execFile);
const sentinelFuse = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * A single executable's main script may require() node's builtins only: any
 * other require left in the bundle would fail at run time, on the user's machine.
 */
export function foreignRequires(source) {
  const out = new Set();
  for (const m of source.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) if (!builtins.has(m[1])) out.add(m[1]);
  return [...out];
}

/** postject's command-line entry (a devDependency); undefined when it is not installed. */
export function postjectCli() {
  try {
    return join(dirname(createRequire(import.meta.url).resolve("postject/package.json")), "dist", "cli.js");
  } catch {
    return undefined;
  }
}

/**
 * The publisher key after the executable's last byte (read by
 * cli/src/core/version.ts readKeyTrailer): one cached build serves every
 * deployment, each with its own key. `file` must not carry one yet.
 */
export async function appendPublisherKey(file, keyLine) {
  if (!/^[A-Za-z0-9+/]{56}$/.test(keyLine)) throw new Error("not a minisign public key line");
  await appendFile(file, `\nmc-publisher-key ${keyLine}\n`);
}

/** The single executable for `release`, written atomically to `out` (with `minisignPubkey`, that key's trailer). */
export async function buildSea({ release, out, commit = "", minisignPubkey = "", metafile, codeCache = true, node = process.execPath }) {
  const postject = postjectCli();
  if (postject === undefined) throw new Error("postject is not installed (npm ci installs it as a devDependency)");
  const file = resolve(out);
  const work = await mkdtemp(join(tmpdir(), "mc-sea-"));
  try {
    const main = join(work, "mc.cjs");
    await buildRelease({ release, out: main, commit, metafile, sea: true });
    const foreign = foreignRequires(await readFile(main, "utf8"));
    if (foreign.length > 0) throw new Error(`the bundle requires modules a single executable cannot load: ${foreign.join(", ")}`);
    const blob = join(work, "mc.blob");
    const config = { main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: codeCache, useSnapshot: false };
    await writeFile(join(work, "sea.json"), JSON.stringify(config));
    // The blob's code cache is V8's, so the node that writes it must be the node that is copied.
    await run(node, ["--experimental-sea-config", join(work, "sea.json")], { cwd: work });
    const temp = join(dirname(file), `.${file.split("/").pop()}.sea-${process.pid}`);
    await copyFile(node, temp);
    await chmod(temp, 0o755);
    // Debug symbols are a tenth of a distribution node and no use to an mc user.
    await run("strip", ["--strip-all", temp]).catch(() => undefined);
    // A child process: postject's ELF library prints warnings about node's many notes, noise to a build log.
    await run(node, [postject, temp, "NODE_SEA_BLOB", blob, "--sentinel-fuse", sentinelFuse], { maxBuffer: 64 * 1024 * 1024 });
    if (minisignPubkey !== "") await appendPublisherKey(temp, minisignPubkey);
    await rename(temp, file);
    return file;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

// Run as a program also through a symbolic link (node resolves the module to its real path).
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      release: { type: "string" },
      out: { type: "string" },
      commit: { type: "string" },
      metafile: { type: "string" },
      "minisign-pubkey": { type: "string" },
      "no-code-cache": { type: "boolean", default: false },
    },
  });
  if (values.release === undefined || values.out === undefined) throw new Error("usage: sea-build.mjs --release RELEASE.<id> --out FILE [--commit SHA] [--minisign-pubkey FILE] [--metafile FILE] [--no-code-cache]");
  await buildSea({
    release: values.release,
    out: values.out,
    commit: values.commit ?? "",
    metafile: values.metafile,
    minisignPubkey: publisherKeyLine(values["minisign-pubkey"]),
    codeCache: !values["no-code-cache"],
  });
}
