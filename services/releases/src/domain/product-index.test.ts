import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { CatalogEntry } from "./catalog-entry.js";
import { indexProduct, latestInIndex, queryIndex } from "./product-index.js";
import { latestRelease, queryReleases, type ReleaseFilter } from "./release-query.js";

const index = suite("product index: the same answers as the whole-catalog query (issue 26)");

/** A catalog with what makes ordering hard: hotfixes of one time, one id in two components, withdrawn releases, odd platforms. */
function catalog(): CatalogEntry[] {
  const out: CatalogEntry[] = [];
  let seed = 11;
  const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  for (let i = 0; i < 120; i++) {
    const day = 1 + rnd(28);
    const base = `RELEASE.2024-0${1 + rnd(9)}-${String(day).padStart(2, "0")}T0${rnd(3)}-00-00Z`;
    const releaseId = rnd(4) === 0 ? `${base}.hotfix.${rnd(4096).toString(16)}` : base;
    const arches = (["amd64", "arm64", "ppc64le"] as const).filter(() => rnd(2) === 0);
    out.push({
      product: "client",
      component: ["mc", "mcs", "other"][rnd(3)] as string,
      releaseId,
      releaseDate: `2024-10-${String(1 + rnd(9)).padStart(2, "0")}T00:00:0${rnd(3)}Z`,
      status: rnd(7) === 0 ? "withdrawn" : "supported",
      platforms: [...arches.map((arch) => ({ os: "linux" as const, arch, size: 1, sha256: "0".repeat(64) })), ...(rnd(3) === 0 ? [{ os: "windows" as const, arch: "amd64" as const, size: 1, sha256: "0".repeat(64) }] : [])],
      documents: [],
    });
  }
  // Store order: component, then id (as the catalog lists them); one (component, id) once.
  const seen = new Set<string>();
  return out.filter((e) => !seen.has(`${e.component}/${e.releaseId}`) && seen.add(`${e.component}/${e.releaseId}`)).sort((a, b) => (a.component + a.releaseId < b.component + b.releaseId ? -1 : 1));
}

index("should list, page and pick latest exactly as queryReleases and latestRelease do", () => {
  const entries = catalog();
  const idx = indexProduct(entries);
  const ids = [...new Set(entries.map((e) => e.releaseId))];
  const cursors = [undefined, ...ids.filter((_, i) => i % 15 === 0), "RELEASE.2030-01-01T00-00-00Z", "RELEASE.2000-01-01T00-00-00Z"];
  let checked = 0;
  for (const component of [undefined, "mc", "other", "nope"]) {
    for (const [os, arch] of [[undefined, undefined], ["linux", undefined], [undefined, "arm64"], ["windows", "amd64"]] as const) {
      const f: { -readonly [K in keyof ReleaseFilter]: ReleaseFilter[K] } = {};
      if (component !== undefined) f.component = component;
      if (os !== undefined) f.os = os;
      if (arch !== undefined) f.arch = arch;
      assert.equal(latestInIndex(idx, f), latestRelease(entries, f));
      for (const after of cursors) {
        for (const limit of [undefined, 1, 7, 100]) {
          const filter = { ...f, ...(after !== undefined ? { after } : {}), ...(limit !== undefined ? { limit } : {}) };
          assert.equal(queryIndex(idx, filter), queryReleases(entries, filter), JSON.stringify(filter));
          checked += 1;
        }
      }
    }
  }
  assert.ok(checked > 300);
});

index("should refuse the same bad parameters", () => {
  const idx = indexProduct(catalog());
  for (const bad of [{ limit: 0 }, { limit: 101 }, { after: "RELEASE.2024-13-40T25-00-00Z" }, { os: "plan9!" }]) {
    assert.throws(() => queryIndex(idx, bad), /invalid query parameter/);
  }
});

index.run();
