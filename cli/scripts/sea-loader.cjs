// The main script of the mc single executable (sea-build.mjs injects it into
// a copy of node once per node version). The program itself, the release
// bundle, and its V8 code cache sit after the executable's last ELF byte, with
// a footer naming where: so a release build is a copy of that base plus the
// bundle (a second or two), not a postject run (tens of seconds), and the code
// cache is one made by running mc, not only the top level's.
// Footer (in the last 256 bytes, before any publisher-key trailer): `MCSEA3:`
// + offset and length (12 digits each) of the bundle, its code cache, the
// `--version` bundle, which answers `mc --version` without loading the rest,
// and the text of `mc --help` (the same on every run), printed as it is.
"use strict";
const { closeSync, fstatSync, openSync, readSync, writeFileSync } = require("node:fs");
const { basename, dirname, join } = require("node:path");
const { Script } = require("node:vm");

const file = process.execPath;
const fd = openSync(file, "r");
const size = fstatSync(fd).size;
const tail = Buffer.alloc(Math.min(256, size));
readSync(fd, tail, 0, tail.length, size - tail.length);
const text = tail.toString("latin1");
const at = text.lastIndexOf("MCSEA3:");
const fields = at < 0 ? null : /^\d{96}/.exec(text.slice(at + 7));
if (fields === null) {
  process.stderr.write(`mc: <ERROR> ${file} holds no mc program (a damaged or truncated file): download it again.\n`);
  process.exit(255);
}
const [bundleAt, bundleLength, cacheAt, cacheLength, versionAt, versionLength, helpAt, helpLength] = fields[0].match(/\d{12}/g).map(Number);
const read = (offset, length) => {
  const buf = Buffer.alloc(length);
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
  closeSync(fd);
  // As main.ts: a closed stdout ends mc quietly with 141.
  process.stdout.once("error", () => process.exit(141));
  process.stdout.write(help, () => process.exit(0));
}

function runProgram() {
  const source = (versionOnly ? read(versionAt, versionLength) : read(bundleAt, bundleLength)).toString("utf8");
  const cachedData = !versionOnly && cacheLength > 0 ? read(cacheAt, cacheLength) : undefined;
  closeSync(fd);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  // The build runs mc once with this set to collect the code cache of what start-up compiles.
  const cacheOut = process.env.MC_SEA_WRITE_CODE_CACHE;
  if (cacheOut && !versionOnly) process.once("exit", () => writeFileSync(cacheOut, script.createCachedData()));
  if (process.env.MC_SEA_DEBUG_CACHE) process.stderr.write(`mc: code cache ${cachedData === undefined ? "absent" : script.cachedDataRejected ? "rejected" : "used"}\n`);
  const program = { exports: {} };
  script.runInThisContext()(program.exports, require, program, file, dirname(file));
}

if (helpOnly) printHelp();
else runProgram();
