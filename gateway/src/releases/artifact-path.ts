import { checksumSuffix, isName, layout, parsePlatform, signatureSuffix, tryParseReleaseId } from "@mc/releases";

export type ArtifactClass = "immutable" | "latest";

export interface Artifact {
  /** Path in the store, built from validated parts only. */
  readonly path: string;
  readonly contentType: string;
  readonly cacheClass: ArtifactClass;
  /** Set for binaries: served as an attachment with this name. */
  readonly attachment: string | undefined;
  /** The `.sha256sum` beside a binary, whose hash is the binary's ETag. */
  readonly checksumPath: string | undefined;
  /**
   * Set for the latest aliases (`<bin>`, `.sha256sum`, `.minisig`): served
   * from the archive file of the catalog's latest release, never from the
   * alias file in the store, so they name what the API names.
   */
  readonly latestOf?: LatestAlias;
}

export interface LatestAlias {
  readonly product: string;
  readonly component: string;
  readonly os: string;
  readonly arch: string;
  /** The platform folder in the store. */
  readonly dir: string;
  /** The alias's file name suffix: "" (the binary), ".sha256sum" or ".minisig". */
  readonly suffix: string;
}

const text = "text/plain; charset=utf-8";

function sidecar(file: string, base: string): { kind: "binary" | "checksum" | "signature" } | undefined {
  if (file === base) return { kind: "binary" };
  if (file === base + checksumSuffix) return { kind: "checksum" };
  if (file === base + signatureSuffix) return { kind: "signature" };
  return undefined;
}

function binaryFile(dir: string, file: string, name: string, cacheClass: ArtifactClass): Artifact | undefined {
  const s = sidecar(file, name);
  if (!s) return undefined;
  const path = `${dir}/${file}`;
  return s.kind === "binary"
    ? { path, contentType: "application/octet-stream", cacheClass, attachment: name, checksumPath: path + checksumSuffix }
    : { path, contentType: text, cacheClass, attachment: undefined, checksumPath: undefined };
}

/**
 * Maps a requested artifact (already split into decoded segments) to its
 * store path, or undefined: only names the URL space defines, with valid
 * products, components, platforms and release ids, ever reach the store.
 */
export function artifactOf(product: string, component: string, platformOrNotes: string, rest: readonly string[]): Artifact | undefined {
  if (!isName(product) || !isName(component)) return undefined;
  if (platformOrNotes === "notes") {
    const [file] = rest;
    if (rest.length !== 1 || file === undefined) return undefined;
    const m = /^(release-notes-|sbom-|gomod-)(RELEASE\.[^/]+?)(\.md|\.cyclonedx\.json|\.spdx\.json|\.txt)$/.exec(file);
    if (!m?.[2] || !tryParseReleaseId(m[2])) return undefined;
    const kind = `${m[1] ?? ""}|${m[3] ?? ""}`;
    const types: Record<string, string> = {
      "release-notes-|.md": "text/markdown; charset=utf-8",
      "sbom-|.cyclonedx.json": "application/vnd.cyclonedx+json",
      "sbom-|.spdx.json": "application/spdx+json",
      "gomod-|.txt": text,
    };
    const contentType = types[kind];
    if (!contentType) return undefined;
    return { path: `${layout.notesDir(product, component)}/${file}`, contentType, cacheClass: "immutable", attachment: undefined, checksumPath: undefined };
  }
  const platform = parsePlatform(platformOrNotes);
  if (!platform) return undefined;
  const dir = layout.platformDir(product, component, platform.os, platform.arch);
  if (rest.length === 1 && rest[0] !== undefined) {
    const bin = layout.latest(product, component, platform.os, platform.arch).split("/").pop() ?? "";
    const alias = binaryFile(dir, rest[0], bin, "latest");
    return alias && { ...alias, latestOf: { product, component, os: platform.os, arch: platform.arch, dir, suffix: rest[0].slice(bin.length) } };
  }
  if (rest.length === 2 && rest[0] === "archive" && rest[1] !== undefined) {
    const m = /^(.+?)\.(RELEASE\.[^/]+?)(\.sha256sum|\.minisig)?$/.exec(rest[1]);
    if (!m?.[2] || m[1] !== component || !tryParseReleaseId(m[2])) return undefined;
    return binaryFile(`${dir}/archive`, rest[1], `${component}.${m[2]}`, "immutable");
  }
  return undefined;
}

export const publicKeyArtifact: Artifact = { path: layout.publicKey(), contentType: text, cacheClass: "latest", attachment: undefined, checksumPath: undefined };

/** The archive file a latest alias stands for once the catalog named `releaseId`: same type, alias cache class, binary attachment name kept. */
export function aliasTarget(alias: Artifact, of: LatestAlias, releaseId: string): Artifact {
  const archive = `${of.dir}/archive/${of.component}.${releaseId}`;
  const path = archive + of.suffix;
  return { ...alias, path, checksumPath: of.suffix === "" ? archive + checksumSuffix : undefined };
}
