import type { CatalogEntry, DocumentKind } from "./catalog-entry.js";
import { documentKinds } from "./catalog-entry.js";
import { checksumSuffix, layout, signatureSuffix, urlOf } from "./layout.js";
import { archiveName, osGroups, type Arch, type DownloadGroup, type Os } from "./names.js";
import { parseReleaseId } from "./release-id.js";

/** A download entry of the release record (contracts/releases.md §5.1). */
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

export interface ReleaseRecord {
  readonly product: string;
  readonly component: string;
  readonly releaseId: string;
  readonly releaseDate: string;
  readonly releaseTime: string;
  readonly status: CatalogEntry["status"];
  readonly publicKeyUrl: string;
  readonly artifacts: Readonly<Record<DocumentKind, string>>;
  readonly downloads: Readonly<Record<DownloadGroup | "docker", readonly DownloadRecord[]>>;
}

/** The record of a catalog entry, every URL absolute under `base`. */
export function toReleaseRecord(entry: CatalogEntry, base: string): ReleaseRecord {
  const { product, component, releaseId } = entry;
  const artifacts = Object.fromEntries(documentKinds.map((k) => [k, urlOf(base, layout.document(product, component, k, releaseId))])) as Record<DocumentKind, string>;
  const downloads: Record<DownloadGroup | "docker", DownloadRecord[]> = { linux: [], macos: [], windows: [], docker: [] };
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
    artifacts,
    downloads,
  };
}
