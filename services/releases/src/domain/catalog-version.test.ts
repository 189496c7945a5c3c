import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { CatalogEntry } from "./catalog-entry.js";
import { catalogVersionOf, compareCatalogVersions, parseCatalogVersion, type CatalogVersion } from "./catalog-version.js";

const entry = (product: string, releaseId: string, status: CatalogEntry["status"] = "supported"): CatalogEntry => ({
  product,
  component: "mc",
  releaseId,
  releaseDate: "2026-01-01T00:00:00Z",
  status,
  platforms: [],
  documents: [],
});
const v = (text: string): CatalogVersion => {
  const parsed = parseCatalogVersion(text);
  if (!parsed) throw new Error(`not a version: ${text}`);
  return parsed;
};
const base = [entry("client", "RELEASE.2026-01-01T00-00-00Z"), entry("server", "RELEASE.2026-01-01T00-00-00Z")];
const a = entry("client", "RELEASE.2026-02-01T00-00-00Z");
const b = entry("server", "RELEASE.2026-02-01T00-00-00Z");

const versions = suite("catalog versions");

versions("should name a snapshot by its records, whatever their order", () => {
  assert.match(catalogVersionOf(base), /^2\.[0-9a-f]{8}$/);
  assert.is(catalogVersionOf([...base].reverse()), catalogVersionOf(base));
  assert.is.not(catalogVersionOf([...base, a]), catalogVersionOf([...base, b]));
});

versions("should parse only the exact form", () => {
  assert.equal(parseCatalogVersion("12.00ff00ff"), { changes: 12, digest: "00ff00ff" });
  for (const bad of ["", "12", "12.00FF00FF", "12.00ff00f", "-1.00ff00ff", "12.00ff00ff ", "1234567890.00ff00ff", undefined, null]) {
    assert.is(parseCatalogVersion(bad), undefined, String(bad));
  }
});

versions("should order by changes first: a publish is newer whatever the digests", () => {
  const older = catalogVersionOf(base);
  const newer = catalogVersionOf([...base, a]);
  assert.ok(compareCatalogVersions(v(newer), v(older)) > 0);
  assert.ok(compareCatalogVersions(v(older), v(newer)) < 0);
  assert.is(compareCatalogVersions(v(newer), v(newer)), 0);
});

versions("should be a total order on equal counts: of two half-seen racing publishes exactly one is newer, the same way from both sides", () => {
  const seenA = v(catalogVersionOf([...base, a]));
  const seenB = v(catalogVersionOf([...base, b]));
  const ab = compareCatalogVersions(seenA, seenB);
  const ba = compareCatalogVersions(seenB, seenA);
  assert.is.not(ab, 0);
  assert.is(Math.sign(ab), -Math.sign(ba), "antisymmetric: a gateway shown both never flips");
  // Both publishes outrank either half.
  const both = v(catalogVersionOf([...base, a, b]));
  assert.ok(compareCatalogVersions(both, seenA) > 0 && compareCatalogVersions(both, seenB) > 0);
});

versions("should be transitive over many snapshots (sorting agrees with every pair)", () => {
  const all = ["3.0000000a", "3.000000ff", "2.ffffffff", "4.00000000", "3.00000001"].map(v);
  const sorted = [...all].sort(compareCatalogVersions);
  for (let i = 0; i < sorted.length; i++) for (let j = i + 1; j < sorted.length; j++) assert.ok(compareCatalogVersions(sorted[j] as CatalogVersion, sorted[i] as CatalogVersion) > 0);
});

versions("should count a withdrawal as a change, so the catalog after it is newer though it has as many records", () => {
  const before = v(catalogVersionOf([...base, a]));
  const after = v(catalogVersionOf([...base, { ...a, status: "withdrawn" }]));
  assert.ok(compareCatalogVersions(after, before) > 0);
});

versions.run();
