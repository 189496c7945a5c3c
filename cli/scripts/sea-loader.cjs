// The main script of the mc single executable (sea-build.mjs injects it into
// a copy of node once per node version, with an empty program slot: the SEA
// asset `mc`). Each release build writes the program into the slot in place,
// so a release build is a copy of that base (a second or two), not a postject
// run (tens of seconds). The slot holds the release bundle, two V8 code
// caches (one trained on `alias list` for commands that talk to no server,
// one on `ls` for the others), the `--version` bundle, which answers
// `mc --version` without loading the rest, the text of `mc --help` (the same
// on every run), printed as it is, and the lazy parts (`./NAME.cjs`, e.g. the
// minisign verifier with libsodium), compiled only when the program requires
// them. sea.getRawAsset is a view of the executable's own mapped pages: no
// read, no copy (start-up here is mostly page faults), and a code cache is
// handed to V8 in place. Scripts are stored wrapped in CommonJS's function
// and ASCII: the bundle becomes a string in one copy, with no concatenation.
"use strict";
const { writeFileSync } = require("node:fs");
const { basename, dirname, join } = require("node:path");
const { getRawAsset } = require("node:sea");
const { Script } = require("node:vm");

const file = process.execPath;
// Built, not written out: a literal would put these bytes in this script's code cache, a second copy in the file.
const marker = `\0${[..."1-TOLS-MARGORP-AES-CM"].reverse().join("")}\0`;
const slot = Buffer.from(getRawAsset("mc"));
const indexLength = Number(slot.latin1Slice(marker.length, marker.length + 8));
const index = slot.latin1Slice(marker.length + 8, marker.length + 8 + indexLength);
const entries = new Map([...index.matchAll(/([a-z:-]+)=(\d{12}),(\d{12});/g)].map((m) => [m[1], slot.subarray(Number(m[2]), Number(m[2]) + Number(m[3]))]));
if (slot.latin1Slice(0, marker.length) !== marker || !entries.has("bundle")) {
  process.stderr.write(`mc: <ERROR> ${file} holds no mc program (a damaged file): download it again.\n`);
  process.exit(255);
}
const empty = Buffer.alloc(0);
const entry = (name) => entries.get(name) ?? empty;
const parts = new Map();
const args = process.argv.slice(2);
const helpOnly = args.length === 1 && (args[0] === "--help" || args[0] === "-h" || args[0] === "help") && entry("help").length > 0;
const versionOnly = args.length === 1 && (args[0] === "--version" || args[0] === "-v") && entry("version").length > 0;

/** -C's default as cli/src/config/home-dir.ts computes it on Unix (the text was made with HOME=/@MCHOME@ as `mc`). */
function configDirDefault() {
  const home = process.env.HOME;
  if (home === undefined || home === "") return "";
  const name = basename(process.argv[1] ?? "mc").replace(/\.(exe|js|ts)$/i, "") || "mc";
  return ` (default: "${join(home, `.${name}`)}")`;
}

function printHelp() {
  const help = entry("help").toString("utf8").replace(' (default: "/@MCHOME@/.mc")', configDirDefault());
  // As main.ts: a closed stdout ends mc quietly with 141.
  process.stdout.once("error", () => process.exit(141));
  // A failed write is the error handler's (141); exiting at once skips node's teardown of the heap.
  process.stdout.write(help, (err) => err || process.exit(0));
}

/**
 * Commands that talk to no server get the code cache trained on `alias
 * list`: the other one holds the S3 SDK's code too, which costs to
 * deserialize, not only to compile.
 */
function localCommand() {
  // The first word that is neither a flag nor the value of a global flag that takes one (help/global-flags.ts).
  const valued = new Set(["-C", "--config-dir", "--resolve", "--limit-upload", "--limit-download", "-H", "--custom-header"]);
  const word = args.find((a, i) => !a.startsWith("-") && !valued.has(args[i - 1] ?? ""));
  return word === undefined || word === "alias" || word === "config" || word === "help";
}

/** A stored CommonJS wrapper, compiled (with its code cache) and run as a module. */
function runScript(source, cachedData, name, cacheName = "cache") {
  const script = new Script(source, { filename: name === undefined ? file : `${file}/${name}`, cachedData });
  // The build runs mc with this set to collect the code cache of what start-up compiles.
  const cacheOut = name === undefined ? process.env.MC_SEA_WRITE_CODE_CACHE : undefined;
  if (cacheOut) process.once("exit", () => writeFileSync(cacheOut, script.createCachedData()));
  if (process.env.MC_SEA_DEBUG_CACHE && name === undefined) process.stderr.write(`mc: code cache ${cachedData === undefined ? "absent" : script.cachedDataRejected ? "rejected" : "used"} (${cacheName})\n`);
  const program = { exports: {} };
  script.runInThisContext()(program.exports, programRequire, program, file, dirname(file));
  return program;
}

/** require() of the program: its lazy parts from the slot, else node's builtins (all a single executable has). */
function programRequire(id) {
  const name = /^\.\/([a-z-]+)\.cjs$/.exec(id)?.[1];
  const part = name === undefined ? undefined : entries.get(`part:${name}`);
  if (part === undefined) return require(id);
  if (!parts.has(name)) parts.set(name, runScript(part.latin1Slice(), undefined, `${name}.cjs`));
  return parts.get(name).exports;
}

function runProgram() {
  if (versionOnly) return void runScript(entry("version").latin1Slice(), undefined);
  const cacheName = localCommand() && entry("local-cache").length > 0 ? "local-cache" : "cache";
  const cache = entry(cacheName);
  // latin1: the build makes every script ASCII, and node turns a large latin1 buffer into a string with one copy.
  runScript(entry("bundle").latin1Slice(), cache.length > 0 ? cache : undefined, undefined, cacheName);
}

if (helpOnly) printHelp();
else runProgram();
