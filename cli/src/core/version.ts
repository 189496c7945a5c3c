import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** Set by `scripts/build.mjs --release RELEASE.<id>` (esbuild `define`); absent in a source checkout. */
declare const MC_BUILD_RELEASE: string | undefined;
declare const MC_BUILD_COMMIT: string | undefined;
/** The publisher's minisign key line (`--minisign-pubkey`), which `mc update` verifies every download against. */
declare const MC_BUILD_MINISIGN_PUBKEY: string | undefined;
/** "1" in a single executable (cli/scripts/sea-build.mjs): node and the bundle are one file. */
declare const MC_BUILD_SEA: string | undefined;

/** The tag of a source checkout, which has no release id of its own. */
export const developmentTag = "DEVELOPMENT.GOGET";

/** `mc --version` (contracts/mc.md §1). */
export const releaseTag: string = typeof MC_BUILD_RELEASE === "string" && MC_BUILD_RELEASE !== "" ? MC_BUILD_RELEASE : developmentTag;
export const commitId: string = typeof MC_BUILD_COMMIT === "string" && MC_BUILD_COMMIT !== "" ? MC_BUILD_COMMIT : developmentTag;

const compiledKey: string | undefined = typeof MC_BUILD_MINISIGN_PUBKEY === "string" && MC_BUILD_MINISIGN_PUBKEY !== "" ? MC_BUILD_MINISIGN_PUBKEY : undefined;

/** True when mc is one executable file (node and the bundle in one): it is process.execPath, and runs without node. */
export const singleExecutable: boolean = typeof MC_BUILD_SEA === "string" && MC_BUILD_SEA === "1";

/**
 * The publisher key a single executable carries after its last byte
 * (cli/scripts/sea-build.mjs appendPublisherKey): one build serves every
 * deployment, each adding its own key (an ELF file ignores trailing bytes).
 */
export const keyTrailerPrefix = "\nmc-publisher-key ";
const keyLineLength = 56;
const trailerLength = keyTrailerPrefix.length + keyLineLength + 1;

export function readKeyTrailer(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const size = fstatSync(fd).size;
    if (size < trailerLength) return undefined;
    const tail = Buffer.alloc(trailerLength);
    readSync(fd, tail, 0, trailerLength, size - trailerLength);
    const text = tail.toString("latin1");
    const key = text.slice(keyTrailerPrefix.length, -1);
    return text.startsWith(keyTrailerPrefix) && text.endsWith("\n") && /^[A-Za-z0-9+/]{56}$/.test(key) ? key : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The key `mc update` verifies every download against: compiled in, or the single executable's trailer. */
export function publisherKey(): string | undefined {
  return compiledKey ?? (singleExecutable ? readKeyTrailer(process.execPath) : undefined);
}

export const archNames: Readonly<Record<string, string>> = { x64: "amd64", arm64: "arm64", ia32: "386", arm: "arm" };

export function versionText(now = new Date()): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  return [
    `mc version ${releaseTag} (commit-id=${commitId})`,
    `Runtime: node${process.versions.node} ${os}/${archNames[process.arch] ?? process.arch}`,
    `Copyright (c) 2015-${now.getFullYear()} MinIO, Inc.`,
    "License GNU AGPLv3 <https://www.gnu.org/licenses/agpl-3.0.html>",
  ].join("\n");
}
