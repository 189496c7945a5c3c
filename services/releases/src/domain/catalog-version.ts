import type { CatalogEntry } from "./catalog-entry.js";

/**
 * A catalog version names one catalog snapshot: `<changes>.<digest>`.
 * `changes` counts what only ever grows: one per record (records are only
 * added, contract §8) plus one per withdrawn record (a withdrawal, in a later
 * version, only ever turns `supported` into `withdrawn`). Today every record
 * is supported, so it is the record count. The digest tells two snapshots of
 * equal count apart: two racing publishes can be seen half-done by two
 * readers (one sees A, the other B), and both are real views of the store.
 * Gateways tag every cached answer with the version it was made from.
 */
export interface CatalogVersion {
  readonly changes: number;
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
  let withdrawn = 0;
  for (const e of entries) {
    keys.push(`${e.product}/${e.component}/${e.releaseId}/${e.status}`);
    if (e.status !== "supported") withdrawn += 1;
  }
  keys.sort();
  return `${keys.length + withdrawn}.${fnv1a(keys.join("\n"))}`;
}

export function parseCatalogVersion(text: string | null | undefined): CatalogVersion | undefined {
  const m = /^(\d{1,9})\.([0-9a-f]{8})$/.exec(text ?? "");
  return m?.[1] && m[2] ? { changes: Number(m[1]), digest: m[2] } : undefined;
}

/**
 * A total order: <0, 0 or >0 as `a` is older than, the same as or newer than
 * `b`. More changes is newer. Between two snapshots of equal count (two
 * half-seen racing publishes) the greater digest wins, arbitrarily but the
 * same way on every gateway, so a gateway shown both never flips between
 * them; the store's next reading holds both publishes and outranks both.
 */
export function compareCatalogVersions(a: CatalogVersion, b: CatalogVersion): number {
  if (a.changes !== b.changes) return a.changes - b.changes;
  return a.digest < b.digest ? -1 : a.digest > b.digest ? 1 : 0;
}
