/**
 * The anchors of the releases page (`{base}/<product>/releases#<anchor>`),
 * in one place so the page and the feeds that link into it always agree.
 * Deep links are `#RELEASE.<id>`; a second component with the same id (later
 * in the newest-first list) gets its name in front: `#<component>-RELEASE.<id>`.
 * The feeds list a prefix of the page's list, so both compute the same anchors.
 */
export function releaseAnchors(releases: ReadonlyArray<{ readonly component: string; readonly releaseId: string }>): string[] {
  const seen = new Set<string>();
  return releases.map((r) => {
    const anchor = seen.has(r.releaseId) ? `${r.component}-${r.releaseId}` : r.releaseId;
    seen.add(anchor);
    return anchor;
  });
}
