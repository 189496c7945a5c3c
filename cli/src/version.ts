/** `mc --version` (contracts/mc.md §1). A source checkout has no release id of its own. */
export const releaseTag = "DEVELOPMENT.GOGET";
export const commitId = "DEVELOPMENT.GOGET";

const archNames: Readonly<Record<string, string>> = { x64: "amd64", arm64: "arm64", ia32: "386", arm: "arm" };

export function versionText(now = new Date()): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  return [
    `mc version ${releaseTag} (commit-id=${commitId})`,
    `Runtime: node${process.versions.node} ${os}/${archNames[process.arch] ?? process.arch}`,
    `Copyright (c) 2015-${now.getFullYear()} MinIO, Inc.`,
    "License GNU AGPLv3 <https://www.gnu.org/licenses/agpl-3.0.html>",
  ].join("\n");
}
