import type { Arch, Os } from "./names.js";

/** One published binary. */
export interface PlatformFile {
  readonly os: Os;
  readonly arch: Arch;
  readonly size: number;
  /** Lowercase hex SHA-256 of the bytes served. */
  readonly sha256: string;
}

/** One of the four release documents, as listed by the notes index. */
export interface DocumentFile {
  readonly kind: DocumentKind;
  readonly name: string;
  readonly size: number;
}

export type DocumentKind = "release_notes" | "sbom_cyclonedx" | "sbom_spdx" | "go_modules";

export type ReleaseStatus = "supported" | "withdrawn";

/** What the catalog records of a release: written once, after its files. */
export interface CatalogEntry {
  readonly product: string;
  readonly component: string;
  readonly releaseId: string;
  /** Publish time, RFC 3339 to the second. */
  readonly releaseDate: string;
  readonly status: ReleaseStatus;
  readonly platforms: readonly PlatformFile[];
  readonly documents: readonly DocumentFile[];
}

export const documentKinds: readonly DocumentKind[] = ["release_notes", "sbom_cyclonedx", "sbom_spdx", "go_modules"];

/** File names of the four documents of a release (contracts/releases.md §3). */
export function documentName(kind: DocumentKind, releaseId: string): string {
  switch (kind) {
    case "release_notes":
      return `release-notes-${releaseId}.md`;
    case "sbom_cyclonedx":
      return `sbom-${releaseId}.cyclonedx.json`;
    case "sbom_spdx":
      return `sbom-${releaseId}.spdx.json`;
    case "go_modules":
      return `gomod-${releaseId}.txt`;
  }
}
