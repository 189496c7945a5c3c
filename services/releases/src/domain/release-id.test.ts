import { suite } from "uvu";
import * as assert from "uvu/assert";
import { AppError } from "@mc/shared/errors";
import { compareReleases, parseReleaseId, tryParseReleaseId } from "./release-id.js";

const ids = suite("release ids");

ids("should parse the time part into RFC 3339", () => {
  const id = parseReleaseId("RELEASE.2024-05-01T01-11-10Z");
  assert.is(id.releaseTime, "2024-05-01T01:11:10Z");
  assert.is(id.hotfix, undefined);
  assert.is(parseReleaseId("RELEASE.2024-05-01T01-11-10Z.hotfix.7fa3c").hotfix, "7fa3c");
});

ids("should reject ids that match the regex but are no real time :: 2024-13-40T25", () => {
  for (const bad of ["RELEASE.2024-13-40T25-00-00Z", "RELEASE.2023-02-29T00-00-00Z", "RELEASE.2024-04-31T10-00-00Z", "RELEASE.2024-05-01T24-00-00Z"]) {
    assert.is(tryParseReleaseId(bad), undefined, bad);
  }
  assert.ok(tryParseReleaseId("RELEASE.2024-02-29T23-59-59Z"));
});

ids("should reject malformed ids with a clear error", () => {
  for (const bad of ["", "RELEASE.2024-05-01T01:11:10Z", "release.2024-05-01T01-11-10Z", "RELEASE.2024-05-01T01-11-10Z.hotfix.XYZ", "RELEASE.2024-05-01T01-11-10Z.hotfix.", "RELEASE.2024-05-01T01-11-10Z/../x"]) {
    assert.throws(() => parseReleaseId(bad), (e: unknown) => e instanceof AppError && e.reason === "invalid_argument" && e.message === `invalid release id '${bad}'`);
  }
});

ids("should order by time, hotfix after plain, hotfixes by publish date", () => {
  const plain = { releaseId: "RELEASE.2024-05-01T01-11-10Z", releaseDate: "2024-05-01T03:00:00Z" };
  const hotA = { releaseId: "RELEASE.2024-05-01T01-11-10Z.hotfix.bbb", releaseDate: "2024-05-02T00:00:00Z" };
  const hotB = { releaseId: "RELEASE.2024-05-01T01-11-10Z.hotfix.aaa", releaseDate: "2024-05-03T00:00:00Z" };
  const later = { releaseId: "RELEASE.2024-06-01T00-00-00Z", releaseDate: "2024-06-01T00:00:00Z" };
  const sorted = [later, hotB, plain, hotA].sort(compareReleases).map((r) => r.releaseId);
  assert.equal(sorted, [plain.releaseId, hotA.releaseId, hotB.releaseId, later.releaseId]);
});

ids.run();
