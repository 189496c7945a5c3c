import { suite } from "uvu";
import * as assert from "uvu/assert";
import { AppError } from "@mc/shared/errors";
import type { CatalogEntry } from "./catalog-entry.js";
import { latestRelease, queryReleases } from "./release-query.js";

function entry(component: string, releaseId: string, platforms: Array<[string, string]>, status: CatalogEntry["status"] = "supported"): CatalogEntry {
  return {
    product: "client",
    component,
    releaseId,
    releaseDate: `${releaseId.slice(8, 18)}T12:00:00Z`,
    status,
    platforms: platforms.map(([os, arch]) => ({ os: os as "linux", arch: arch as "amd64", size: 1, sha256: "0".repeat(64) })),
    documents: [],
  };
}

const all = [
  entry("mc", "RELEASE.2024-01-01T00-00-00Z", [["linux", "amd64"], ["windows", "amd64"]]),
  entry("mc", "RELEASE.2024-02-01T00-00-00Z", [["linux", "amd64"], ["linux", "arm64"]]),
  entry("mc", "RELEASE.2024-03-01T00-00-00Z", [["linux", "amd64"]], "withdrawn"),
  entry("other", "RELEASE.2024-02-15T00-00-00Z", [["darwin", "arm64"]]),
];

const query = suite("release queries");

query("should list newest first", () => {
  assert.equal(
    queryReleases(all, {}).entries.map((e) => e.releaseId),
    ["RELEASE.2024-03-01T00-00-00Z", "RELEASE.2024-02-15T00-00-00Z", "RELEASE.2024-02-01T00-00-00Z", "RELEASE.2024-01-01T00-00-00Z"],
  );
});

query("should filter by component, os and arch, dropping records left empty", () => {
  assert.equal(queryReleases(all, { component: "other" }).entries.length, 1);
  const windows = queryReleases(all, { os: "windows" }).entries;
  assert.equal(windows.map((e) => e.releaseId), ["RELEASE.2024-01-01T00-00-00Z"]);
  assert.equal(windows[0]?.platforms.map((p) => p.os), ["windows"]);
  assert.equal(queryReleases(all, { arch: "arm64" }).entries.map((e) => e.component), ["other", "mc"]);
});

query("should page with limit and the after cursor", () => {
  const first = queryReleases(all, { limit: 2 });
  assert.is(first.entries.length, 2);
  assert.is(first.nextAfter, "RELEASE.2024-02-15T00-00-00Z");
  const second = queryReleases(all, { limit: 2, after: first.nextAfter ?? "" });
  assert.equal(second.entries.map((e) => e.releaseId), ["RELEASE.2024-02-01T00-00-00Z", "RELEASE.2024-01-01T00-00-00Z"]);
  assert.is(second.nextAfter, undefined);
});

query("should refuse bad parameters with the contract's words", () => {
  for (const [filter, name] of [
    [{ limit: 0 }, "limit"],
    [{ limit: 101 }, "limit"],
    [{ limit: 1.5 }, "limit"],
    [{ after: "RELEASE.2024-13-01T00-00-00Z" }, "after"],
    [{ os: "plan9" }, "os"],
    [{ arch: "vax" }, "arch"],
    [{ component: "Bad Name" }, "component"],
  ] as const) {
    assert.throws(() => queryReleases(all, filter), (e: unknown) => e instanceof AppError && e.message === `invalid query parameter '${name}'`);
  }
});

query("should pick the newest supported release as latest :: withdrawn never", () => {
  assert.is(latestRelease(all, {})?.releaseId, "RELEASE.2024-02-15T00-00-00Z");
  assert.is(latestRelease(all, { component: "mc" })?.releaseId, "RELEASE.2024-02-01T00-00-00Z");
  assert.is(latestRelease(all, { os: "windows" })?.releaseId, "RELEASE.2024-01-01T00-00-00Z");
  assert.is(latestRelease(all, { os: "darwin", component: "mc" }), undefined);
});

query("should search ids and notes text :: every word", () => {
  const notes = (e: CatalogEntry): string => (e.releaseId.includes("02-01") ? "Fixes multipart uploads" : "Other changes");
  assert.equal(queryReleases(all, { query: "MULTIPART fixes" }, notes).entries.map((e) => e.releaseId), ["RELEASE.2024-02-01T00-00-00Z"]);
  assert.is(queryReleases(all, { query: "multipart nothing" }, notes).entries.length, 0);
});

query.run();
