// The main script of the mc single executable (sea-build.mjs injects it into
// a copy of node once per node version). The program itself, the release
// bundle, and its V8 code cache sit after the executable's last ELF byte, with
// a footer naming where: so a release build is a copy of that base plus the
// bundle (a second or two), not a postject run (tens of seconds), and the code
// cache is one made by running mc, not only the top level's.
// Footer (in the last 256 bytes, before any publisher-key trailer): `MCSEA2:`
// + offset and length (12 digits each) of the bundle, its code cache and the
// `--version` bundle, which answers `mc --version` without loading the rest.
"use strict";
const { closeSync, fstatSync, openSync, readSync, writeFileSync } = require("node:fs");
const { dirname } = require("node:path");
const { Script } = require("node:vm");

const file = process.execPath;
const fd = openSync(file, "r");
const size = fstatSync(fd).size;
const tail = Buffer.alloc(Math.min(256, size));
readSync(fd, tail, 0, tail.length, size - tail.length);
const text = tail.toString("latin1");
const at = text.lastIndexOf("MCSEA2:");
const fields = at < 0 ? null : /^\d{72}/.exec(text.slice(at + 7));
if (fields === null) {
  process.stderr.write(`mc: <ERROR> ${file} holds no mc program (a damaged or truncated file): download it again.\n`);
  process.exit(255);
}
const [bundleAt, bundleLength, cacheAt, cacheLength, versionAt, versionLength] = fields[0].match(/\d{12}/g).map(Number);
const read = (offset, length) => {
  const buf = Buffer.alloc(length);
  readSync(fd, buf, 0, length, offset);
  return buf;
};
const args = process.argv.slice(2);
const versionOnly = args.length === 1 && (args[0] === "--version" || args[0] === "-v") && versionLength > 0;
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
