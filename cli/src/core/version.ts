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

export const publisherKey: string | undefined = typeof MC_BUILD_MINISIGN_PUBKEY === "string" && MC_BUILD_MINISIGN_PUBKEY !== "" ? MC_BUILD_MINISIGN_PUBKEY : undefined;

/** True when mc is one executable file (node and the bundle in one): it is process.execPath, and runs without node. */
export const singleExecutable: boolean = typeof MC_BUILD_SEA === "string" && MC_BUILD_SEA === "1";

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
