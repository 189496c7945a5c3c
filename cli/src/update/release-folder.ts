/** Where a release build looks for newer releases (contracts/mc.md §9 steps 1–2). */
import { existsSync } from "node:fs";
import { archNames, commitId, developmentTag, releaseTag } from "../core/version.js";
import type { ReleaseId } from "./release-id.js";

/** The public release service's folder when MC_UPDATE_URL is unset. */
export const defaultUpdateUrl = "https://dl.min.io/client/mc/release";

export const osName = (): string => (process.platform === "win32" ? "windows" : process.platform);
export const archName = (): string => (process.arch === "ppc64" && process.platform === "linux" ? "ppc64le" : (archNames[process.arch] ?? process.arch));

/** `<folder>/<os>-<arch>`, the folder from MC_UPDATE_URL or the default. */
export function platformFolder(env: NodeJS.ProcessEnv = process.env): string {
  const folder = (env["MC_UPDATE_URL"] || defaultUpdateUrl).replace(/\/+$/, "");
  return `${folder}/${osName()}-${archName()}`;
}

/** The checksum file naming the newest build of this platform. */
export const checksumName = (): string => (process.platform === "win32" ? "mc.exe.sha256sum" : "mc.sha256sum");

/** In a container, upstream only prints `docker pull`; `MC_UPDATE_DOCKER=off` updates the file anyway (ours). */
export const inDocker = (): boolean => process.env["MC_UPDATE_DOCKER"] !== "off" && existsSync("/.dockerenv");

export function userAgent(release: ReleaseId | undefined): string {
  const extras = [osName(), archName(), ...(inDocker() ? ["docker"] : []), ...(release ? [] : ["source"])];
  const version = release ? release.time.toISOString().replace(/\.000Z$/, "Z") : developmentTag;
  return `mc (${extras.join("; ")}) mc/${version} mc/${releaseTag} mc/${commitId}`;
}
