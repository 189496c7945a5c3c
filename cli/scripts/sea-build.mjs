// Builds `mc` as one executable file for this machine's platform (issue 23),
// a Node single executable application: once per node, sea-loader.cjs goes in
// as the SEA main script (`node --experimental-sea-config`, then postject with
// the SEA fuse) into a stripped copy of node (seaBase), with an empty program
// slot (a SEA asset). Each build then writes into the slot of a copy of that
// base the release bundle of build.mjs (everything inlined but the lazy parts,
// the release id compiled in), the V8 code caches of two training runs
// (compiling the bundle is most of mc's start-up), the `--version` bundle, the
// ready `--help` text and the lazy parts, and appends the publisher key's
// trailer. The result needs no node, npm or source folder beside it.
// `node scripts/sea-build.mjs --release RELEASE.<id> --out FILE [--commit SHA] [--minisign-pubkey FILE] [--metafile FILE] [--no-code-cache]`
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { builtinModules, createRequire } from "node:module";
import { createHash } from "node:crypto";
import { appendFile, chmod, copyFile, mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { buildRelease, publisherKeyLine, versionEntry } from "./build.mjs";

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

const seaRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const loaderFile = join(dirname(fileURLToPath(import.meta.url)), "sea-loader.cjs");

/** What starts the program slot (sea-loader.cjs looks for it too): unique in the executable. */
export const slotMarker = "\0MC-SEA-PROGRAM-SLOT-1\0";
const MiB = 1024 * 1024;

/**
 * node with sea-loader.cjs injected as its single-executable main script and
 * an asset `mc` of `capacity` bytes, the program slot: marker then zeros,
 * which each release build overwrites in place (sea-loader.cjs reads it with
 * sea.getRawAsset, a view of the executable's own mapped pages: no read, no
 * copy). Built once per node, loader and capacity (postject takes tens of
 * seconds) and kept in MC_SEA_BASE_CACHE, else node_modules/.cache/mc-sea-base,
 * with the slot's file offset beside it (node-KEY.slot).
 */
export async function seaBase({ node = process.execPath, capacity = 8 * MiB } = {}) {
  const postject = postjectCli();
  if (postject === undefined) throw new Error("postject is not installed (npm ci installs it as a devDependency)");
  const loader = await readFile(loaderFile);
  const nodeStat = await stat(node);
  const key = createHash("sha256").update(`${process.version}\0${process.arch}\0${nodeStat.size}\0${nodeStat.mtimeMs}\0${capacity}\0`).update(loader).digest("hex").slice(0, 24);
  const root = process.env.MC_SEA_BASE_CACHE || join(seaRoot, "node_modules", ".cache", "mc-sea-base");
  const file = join(root, `node-${key}`);
  const slotFile = `${file}.slot`;
  const cached = await readFile(slotFile, "utf8").then((t) => Number(t), () => NaN);
  if (Number.isInteger(cached) && (await stat(file).then(() => true, () => false))) return { file, slotAt: cached, capacity };
  await mkdir(root, { recursive: true });
  const work = await mkdtemp(join(tmpdir(), "mc-sea-base-"));
  try {
    const blob = join(work, "loader.blob");
    const slot = Buffer.alloc(capacity);
    slot.write(slotMarker, "latin1");
    await writeFile(join(work, "slot"), slot);
    const config = { main: loaderFile, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, useSnapshot: false, assets: { mc: join(work, "slot") } };
    await writeFile(join(work, "sea.json"), JSON.stringify(config));
    // The blob's code cache is V8's, so the node that writes it must be the node that is copied.
    await run(node, ["--experimental-sea-config", join(work, "sea.json")], { cwd: work });
    const temp = join(root, `.node-${key}-${process.pid}`);
    await copyFile(node, temp);
    await chmod(temp, 0o755);
    // Debug symbols are a tenth of a distribution node and no use to an mc user.
    await run("strip", ["--strip-all", temp]).catch(() => undefined);
    // A child process: postject's ELF library prints warnings about node's many notes, noise to a build log.
    await run(node, [postject, temp, "NODE_SEA_BLOB", blob, "--sentinel-fuse", sentinelFuse], { maxBuffer: 64 * 1024 * 1024 });
    const bytes = await readFile(temp);
    const slotAt = bytes.indexOf(slotMarker, 0, "latin1");
    if (slotAt < 0 || bytes.indexOf(slotMarker, slotAt + 1, "latin1") >= 0) throw new Error("postject's output holds the program slot's marker not exactly once");
    // The slot's offset first, atomically: a base present means its offset is.
    await writeFile(`${temp}.slot`, String(slotAt));
    await rename(`${temp}.slot`, slotFile);
    await rename(temp, file);
    // Bases of other nodes, loaders or capacities are never used again.
    for (const name of await readdir(root)) if (name.startsWith("node-") && !name.startsWith(`node-${key}`)) await rm(join(root, name), { force: true });
    return { file, slotAt, capacity };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** -C's default in the ready `--help` text (sea-loader.cjs puts the real one in). */
const helpHomeDefault = ' (default: "/@MCHOME@/.mc")';

/**
 * A script as sea-loader.cjs compiles it: wrapped in CommonJS's function (so
 * V8 gets the text as read, not a 2 MB concatenation to flatten first) and
 * ASCII only, with every other character as a \u escape (the loader reads it
 * as latin1: one copy, no UTF-8 decoding). esbuild leaves some in regular
 * expression literals; in strings, regular expressions, templates and
 * identifiers the escape means the same character.
 */
export function wrapScript(source) {
  const ascii = source.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return Buffer.from(`(function (exports, require, module, __filename, __dirname) {${ascii}\n})`, "latin1");
}

/** The slot's entries in sea-loader.cjs's order; lazy parts follow as `part:NAME`. */
const slotEntries = ["bundle", "local-cache", "cache", "version", "help"];

/**
 * The program slot's contents: marker, index length (8 digits), index
 * (`NAME=OFFSET,LENGTH;` relative to the slot), then each entry at an offset
 * 8-aligned in the file (V8 reads a code cache in place only when it is aligned).
 */
export function slotContents(slotAt, entries) {
  const named = [...entries].filter(([, data]) => data !== undefined);
  // Each index entry is `NAME=` + 12 digits + `,` + 12 digits + `;`.
  const indexLength = named.reduce((n, [name]) => n + name.length + 27, 0);
  let offset = slotMarker.length + 8 + indexLength;
  const placed = named.map(([name, data]) => {
    offset += (8 - ((slotAt + offset) % 8)) % 8;
    const at = offset;
    offset += data.length;
    return { name, data, at };
  });
  const index = placed.map((p) => `${p.name}=${String(p.at).padStart(12, "0")},${String(p.data.length).padStart(12, "0")};`).join("");
  if (index.length !== indexLength) throw new Error("program slot index miscounted");
  const out = Buffer.alloc(offset);
  out.write(`${slotMarker}${String(index.length).padStart(8, "0")}${index}`, "latin1");
  for (const p of placed) p.data.copy(out, p.at);
  return out;
}

/**
 * A loopback HTTP server for the code cache's training run: a ListObjectsV2
 * of three objects for every GET, 404 for anything else. No traffic leaves the machine.
 */
async function listingEndpoint() {
  const listing = [
    '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
    "<Name>bucket</Name><Prefix></Prefix><KeyCount>3</KeyCount><MaxKeys>1000</MaxKeys><Delimiter>/</Delimiter><IsTruncated>false</IsTruncated><EncodingType>url</EncodingType>",
    ...["a.txt", "b.txt", "c.txt"].map((key, i) => `<Contents><Key>${key}</Key><LastModified>2026-01-0${i + 1}T00:00:00.000Z</LastModified><ETag>&quot;0123456789abcdef0123456789abcdef&quot;</ETag><Size>${10 ** i}</Size><StorageClass>STANDARD</StorageClass></Contents>`),
    "<CommonPrefixes><Prefix>folder/</Prefix></CommonPrefixes></ListBucketResult>",
  ].join("");
  const server = createServer((req, res) => {
    req.resume();
    const ok = req.method === "GET" && (req.url ?? "").includes("list-type=2");
    res.writeHead(ok ? 200 : 404, { "content-type": "application/xml" }).end(ok ? listing : "<Error><Code>NoSuchKey</Code></Error>");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: server.address().port };
}

/** A copy of the base with the program in its slot (sea-loader.cjs reads it back). */
async function assemble(out, base, program) {
  const entries = [...slotEntries.map((name) => [name, program[name]]), ...program.parts.map(([name, data]) => [`part:${name}`, data])];
  const contents = slotContents(base.slotAt, entries);
  if (contents.length > base.capacity) throw Object.assign(new Error(`the program needs ${contents.length} bytes, the slot holds ${base.capacity}`), { needs: contents.length });
  await copyFile(base.file, out);
  const fd = await open(out, "r+");
  try {
    await fd.write(contents, 0, contents.length, base.slotAt);
  } finally {
    await fd.close();
  }
  await chmod(out, 0o755);
}

/** The single executable for `release`, written atomically to `out` (with `minisignPubkey`, that key's trailer). */
export async function buildSea({ release, out, commit = "", minisignPubkey = "", metafile, codeCache = true, node = process.execPath }) {
  const file = resolve(out);
  let base = await seaBase({ node });
  const work = await mkdtemp(join(tmpdir(), "mc-sea-"));
  try {
    const main = join(work, "mc.cjs");
    const built = await buildRelease({ release, out: main, commit, metafile, sea: true, partsDir: join(work, "parts") });
    await buildRelease({ release, out: join(work, "version.cjs"), commit, sea: true, entry: versionEntry });
    const parts = [];
    for (const part of built) parts.push([part.name, wrapScript(await readFile(part.file, "utf8"))]);
    const names = new Set(parts.map(([name]) => `./${name}.cjs`));
    const program = { bundle: wrapScript(await readFile(main, "utf8")), version: wrapScript(await readFile(join(work, "version.cjs"), "utf8")), parts };
    // Room for the program and two code caches of about its size, in steps of 8 MiB (a new base is a postject run).
    const estimate = slotContents(0, [["bundle", program.bundle], ["version", program.version], ...parts]).length + 2 * program.bundle.length;
    if (estimate > base.capacity) base = await seaBase({ node, capacity: Math.ceil((estimate + MiB) / (8 * MiB)) * 8 * MiB });
    for (const [name, script] of [["mc.cjs", program.bundle], ...parts]) {
      const foreign = foreignRequires(script.toString("latin1")).filter((id) => !names.has(id));
      if (foreign.length > 0) throw new Error(`${name} requires modules a single executable cannot load: ${foreign.join(", ")}`);
    }
    // `mc --help` is the same text on every run but for -C's default (HOME and the program's name): kept
    // ready with a placeholder home, which sea-loader.cjs replaces.
    await mkdir(join(work, "help"));
    const helpProbe = join(work, "help", "mc");
    await assemble(helpProbe, base, program);
    program.help = Buffer.from((await run(helpProbe, ["--help"], { env: { PATH: "/usr/bin:/bin", HOME: "/@MCHOME@", MC_UPDATE: "off" } })).stdout);
    if (!program.help.includes(helpHomeDefault)) throw new Error(`mc --help no longer shows -C's default as ${helpHomeDefault}: update sea-loader.cjs`);
    if (codeCache) {
      // Run it to collect V8's code cache of what start-up compiles, once for commands that need no
      // server (`alias list`) and once for the others; MC_UPDATE=off: no update check from a build.
      const probe = join(work, "mc-probe");
      await assemble(probe, base, program);
      const cacheFile = join(work, "code-cache");
      const env = { PATH: "/usr/bin:/bin", HOME: work, MC_UPDATE: "off", MC_HOST_probe: "http://probe:probe@127.0.0.1:9", MC_SEA_WRITE_CODE_CACHE: cacheFile };
      await run(probe, ["alias", "list"], { env });
      program["local-cache"] = await readFile(cacheFile);
      // `ls` of a bucket on a loopback endpoint that answers every listing with three objects: main,
      // config, the command, the S3 SDK, the request, the XML and the listing's lines all compile.
      const endpoint = await listingEndpoint();
      try {
        await run(probe, ["ls", "probe/bucket"], { env: { ...env, MC_HOST_probe: `http://probe:probe@127.0.0.1:${endpoint.port}` } });
      } finally {
        endpoint.server.close();
      }
      program.cache = await readFile(cacheFile);
    }
    const temp = join(dirname(file), `.${file.split("/").pop()}.sea-${process.pid}`);
    await assemble(temp, base, program).catch(async (err) => {
      if (typeof err.needs !== "number") throw err;
      // Code caches larger than estimated: a bigger slot (the caches are V8's, valid in any base of this node).
      base = await seaBase({ node, capacity: Math.ceil((err.needs + MiB) / (8 * MiB)) * 8 * MiB });
      await assemble(temp, base, program);
    });
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
