import type { CatalogEntry } from "./catalog-entry.js";

/**
 * A catalog version names one catalog snapshot: `<records>.<digest>`. Records
 * are only ever added (contract §8; withdrawal is not in this version), so the
 * count orders versions; the digest tells two snapshots of equal count apart
 * (two publishes racing into different products). Gateways tag every cached
 * answer with the version it was made from.
 */
export interface CatalogVersion {
  readonly records: number;
  readonly digest: string;
}

/** FNV-1a over the sorted record keys: cheap, pure, and stable across instances. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

export function catalogVersionOf(entries: Iterable<CatalogEntry>): string {
  const keys: string[] = [];
  for (const e of entries) keys.push(`${e.product}/${e.component}/${e.releaseId}/${e.status}`);
  keys.sort();
  return `${keys.length}.${fnv1a(keys.join("\n"))}`;
}

export function parseCatalogVersion(text: string | null | undefined): CatalogVersion | undefined {
  const m = /^(\d{1,9})\.([0-9a-f]{8})$/.exec(text ?? "");
  return m?.[1] && m[2] ? { records: Number(m[1]), digest: m[2] } : undefined;
}

/** >0 when `a` is newer than `b`; equal counts with different digests compare as newer (adopt it). */
export function compareCatalogVersions(a: CatalogVersion, b: CatalogVersion): number {
  if (a.records !== b.records) return a.records - b.records;
  return a.digest === b.digest ? 0 : 1;
}
