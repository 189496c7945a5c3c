// The main script of the mc single executable (sea-build.mjs injects it into
// a copy of node once per node version). The program itself, the release
// bundle, and its V8 code cache sit after the executable's last ELF byte, with
// a footer naming where: so a release build is a copy of that base plus the
// bundle (a second or two), not a postject run (tens of seconds), and the code
// cache is one made by running mc, not only the top level's.
// Footer (in the last 1024 bytes, before any publisher-key trailer): `MCSEA4:`
// + offset and length (12 digits each) of the bundle, the code cache of
// commands that need no server, the code cache of the others, the
// `--version` bundle, which answers `mc --version` without loading the rest,
// and the text of `mc --help` (the same on every run), printed as it is; then
// `;NAME=` + offset and length for each lazy part (`./NAME.cjs`, e.g. the
// minisign verifier with libsodium), compiled only when the program requires it.
// Scripts are stored already wrapped in the CommonJS function: V8 compiles the
// text as it was read, with no 2 MB concatenation (start-up is page faults here).
"use strict";
const { fstatSync, openSync, readSync, writeFileSync } = require("node:fs");
const { basename, dirname, join } = require("node:path");
const { Script } = require("node:vm");

const file = process.execPath;
// Kept open: a lazy part is read from this file even after `mc update` renamed another over its path.
const fd = openSync(file, "r");
const size = fstatSync(fd).size;
const tail = Buffer.alloc(Math.min(1024, size));
readSync(fd, tail, 0, tail.length, size - tail.length);
const text = tail.toString("latin1");
const at = text.lastIndexOf("MCSEA4:");
const footer = at < 0 ? null : /^(\d{120})((?:;[a-z-]+=\d{24})*)\n/.exec(text.slice(at + 7));
if (footer === null) {
  process.stderr.write(`mc: <ERROR> ${file} holds no mc program (a damaged or truncated file): download it again.\n`);
  process.exit(255);
}
const [bundleAt, bundleLength, localCacheAt, localCacheLength, cacheAt, cacheLength, versionAt, versionLength, helpAt, helpLength] = footer[1].match(/\d{12}/g).map(Number);
const parts = new Map([...footer[2].matchAll(/;([a-z-]+)=(\d{12})(\d{12})/g)].map((m) => [`./${m[1]}.cjs`, { at: Number(m[2]), length: Number(m[3]), module: undefined }]));
const read = (offset, length) => {
  const buf = Buffer.allocUnsafe(length);
  readSync(fd, buf, 0, length, offset);
  return buf;
};
const args = process.argv.slice(2);
const helpOnly = args.length === 1 && (args[0] === "--help" || args[0] === "-h" || args[0] === "help") && helpLength > 0;
const versionOnly = args.length === 1 && (args[0] === "--version" || args[0] === "-v") && versionLength > 0;

/** -C's default as cli/src/config/home-dir.ts computes it on Unix (the text was made with HOME=/@MCHOME@ as `mc`). */
function configDirDefault() {
  const home = process.env.HOME;
  if (home === undefined || home === "") return "";
  const name = basename(process.argv[1] ?? "mc").replace(/\.(exe|js|ts)$/i, "") || "mc";
  return ` (default: "${join(home, `.${name}`)}")`;
}

function printHelp() {
  const help = read(helpAt, helpLength).toString("utf8").replace(' (default: "/@MCHOME@/.mc")', configDirDefault());
  // As main.ts: a closed stdout ends mc quietly with 141.
  process.stdout.once("error", () => process.exit(141));
  process.stdout.write(help, () => process.exit(0));
}

/**
 * Commands that talk to no server (sea-build.mjs trains a code cache on
 * `alias list` for them): the cache of the others holds the S3 SDK's code
 * too, which is a cost to deserialize, not only to compile.
 */
function localCommand() {
  const words = args.filter((a) => !a.startsWith("-"));
  return words[0] === "alias" || words[0] === "config" || words[0] === "help" || words.length === 0;
}

/** A stored CommonJS wrapper, compiled (with its code cache) and run as a module. */
function runScript(source, cachedData, name) {
  const script = new Script(source, { filename: name === undefined ? file : `${file}/${name}`, cachedData });
  // The build runs mc with this set to collect the code cache of what start-up compiles.
  const cacheOut = name === undefined ? process.env.MC_SEA_WRITE_CODE_CACHE : undefined;
  if (cacheOut) process.once("exit", () => writeFileSync(cacheOut, script.createCachedData()));
  if (process.env.MC_SEA_DEBUG_CACHE && name === undefined) process.stderr.write(`mc: code cache ${cachedData === undefined ? "absent" : script.cachedDataRejected ? "rejected" : "used"}\n`);
  const program = { exports: {} };
  script.runInThisContext()(program.exports, programRequire, program, file, dirname(file));
  return program;
}

/** require() of the program: its lazy parts from this file, else node's builtins (all a single executable has). */
function programRequire(id) {
  const part = parts.get(id);
  if (part === undefined) return require(id);
  part.module ??= runScript(read(part.at, part.length).toString("latin1"), undefined, id.slice(2));
  return part.module.exports;
}

function runProgram() {
  if (versionOnly) return void runScript(read(versionAt, versionLength).toString("latin1"), undefined);
  const local = localCommand() && localCacheLength > 0;
  const [at, length] = local ? [localCacheAt, localCacheLength] : [cacheAt, cacheLength];
  // latin1: the build makes every script ASCII, and node turns a large latin1 buffer into a string with one copy, no decoding.
  runScript(read(bundleAt, bundleLength).toString("latin1"), length > 0 ? read(at, length) : undefined);
}

if (helpOnly) printHelp();
else runProgram();
