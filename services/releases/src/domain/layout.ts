import { documentName, type DocumentKind } from "./catalog-entry.js";
import { archiveName, binaryName, type Os } from "./names.js";

/**
 * Where everything lives, as paths relative to the store root. The store is
 * laid out exactly like the public URL space, so a URL is `{base}/{path}`.
 * The catalog lives under `_catalog/`, which no public route serves.
 */
export const layout = {
  publicKey: () => "minisign.pub",
  releasesPage: (product: string) => `${product}/releases`,
  platformDir: (product: string, component: string, os: Os, arch: string) => `${product}/${component}/release/${os}-${arch}`,
  archive(product: string, component: string, os: Os, arch: string, releaseId: string): string {
    return `${layout.platformDir(product, component, os, arch)}/archive/${archiveName(component, releaseId)}`;
  },
  latest(product: string, component: string, os: Os, arch: string): string {
    return `${layout.platformDir(product, component, os, arch)}/${binaryName(component, os)}`;
  },
  notesDir: (product: string, component: string) => `${product}/${component}/release/notes`,
  document(product: string, component: string, kind: DocumentKind, releaseId: string): string {
    return `${layout.notesDir(product, component)}/${documentName(kind, releaseId)}`;
  },
  catalogDir: (product: string, component: string) => `_catalog/${product}/${component}`,
  /** Rewritten by every publish after its record: readers relist the catalog only when it moved. */
  catalogHead: () => "_catalog/_head",
  catalogEntry: (product: string, component: string, releaseId: string) => `_catalog/${product}/${component}/${releaseId}.json`,
  apiList: (product: string) => `api/releases/${product}`,
  jsonFeed: (product: string) => `api/feeds/${product}.json`,
  rssFeed: (product: string) => `feed-${product}.rss`,
} as const;

export const checksumSuffix = ".sha256sum";
export const signatureSuffix = ".minisig";

/** `{base}/{path}`, with base trimmed of a trailing slash. */
export function urlOf(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path}`;
}
