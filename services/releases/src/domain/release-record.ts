import type { CatalogEntry } from "./catalog-entry.js";
import { checksumSuffix, layout, signatureSuffix, urlOf } from "./layout.js";
import { archiveName, osGroups, type Arch, type DownloadGroup, type Os } from "./names.js";
import { parseReleaseId } from "./release-id.js";

// The release record (contracts/releases.md §5.1) in the shape of the proto
// message releases.v1.Release, which is the record: the service creates the
// message from it as it is, and the gateway serves the message's proto JSON.
// The adapter checks at compile time that the two shapes stay one.

/** A download entry of the release record. */
export interface DownloadRecord {
  readonly component: string;
  readonly os: Os;
  readonly arch: Arch;
  readonly filename: string;
  readonly url: string;
  readonly latestUrl: string;
  readonly size: number;
  readonly sha256: string;
  readonly checksumUrl: string;
  readonly signatureUrl: string;
}

/** A container image entry; the catalog records none in this version, so the list is empty. */
export interface DockerRecord {
  readonly component: string;
  readonly image: string;
  readonly tag: string;
  /** `docker pull <image>:<tag>`. */
  readonly pull: string;
}

/** The absolute URLs of the four release documents. */
export interface ArtifactUrls {
  readonly releaseNotes: string;
  readonly sbomCyclonedx: string;
  readonly sbomSpdx: string;
  readonly goModules: string;
}

export interface ReleaseRecord {
  readonly product: string;
  readonly component: string;
  readonly releaseId: string;
  readonly releaseDate: string;
  readonly releaseTime: string;
  readonly status: CatalogEntry["status"];
  readonly publicKeyUrl: string;
  readonly artifacts: ArtifactUrls;
  readonly downloads: Readonly<Record<DownloadGroup, DownloadRecord[]>> & { readonly docker: DockerRecord[] };
}

/** The document URLs of one release. */
export function artifactUrls(entry: Pick<CatalogEntry, "product" | "component" | "releaseId">, base: string): ArtifactUrls {
  const url = (kind: Parameters<typeof layout.document>[2]): string => urlOf(base, layout.document(entry.product, entry.component, kind, entry.releaseId));
  return { releaseNotes: url("release_notes"), sbomCyclonedx: url("sbom_cyclonedx"), sbomSpdx: url("sbom_spdx"), goModules: url("go_modules") };
}

/** The record of a catalog entry, every URL absolute under `base`. */
export function toReleaseRecord(entry: CatalogEntry, base: string): ReleaseRecord {
  const { product, component, releaseId } = entry;
  const downloads: Record<DownloadGroup, DownloadRecord[]> & { docker: DockerRecord[] } = { linux: [], macos: [], windows: [], docker: [] };
  for (const p of [...entry.platforms].sort((a, b) => (a.arch < b.arch ? -1 : a.arch > b.arch ? 1 : 0))) {
    const archive = urlOf(base, layout.archive(product, component, p.os, p.arch, releaseId));
    downloads[osGroups[p.os]].push({
      component,
      os: p.os,
      arch: p.arch,
      filename: archiveName(component, releaseId),
      url: archive,
      latestUrl: urlOf(base, layout.latest(product, component, p.os, p.arch)),
      size: p.size,
      sha256: p.sha256,
      checksumUrl: archive + checksumSuffix,
      signatureUrl: archive + signatureSuffix,
    });
  }
  return {
    product,
    component,
    releaseId,
    releaseDate: entry.releaseDate,
    releaseTime: parseReleaseId(releaseId).releaseTime,
    status: entry.status,
    publicKeyUrl: urlOf(base, layout.publicKey()),
    artifacts: artifactUrls(entry, base),
    downloads,
  };
}
