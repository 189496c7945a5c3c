import { test } from "uvu";
import * as assert from "uvu/assert";
import { parseReleaseId, type ReleaseId } from "./release-id.js";
import { dayMs, isCheckDue, noticeFor, parseState, releasedBefore } from "./update-notice.js";

const id = (s: string): ReleaseId => {
  const r = parseReleaseId(s);
  if (!r) throw new Error(s);
  return r;
};
const running = id("RELEASE.2026-01-05T10-00-00Z");
const latest = "RELEASE.2026-11-18T09-15-00Z";
const now = Date.UTC(2026, 10, 27, 12, 0, 0);

test("a check is due once a day, on a first run, and after the clock went back", () => {
  assert.ok(isCheckDue({}, now));
  assert.not.ok(isCheckDue({ attemptedAt: now - dayMs + 1 }, now));
  assert.ok(isCheckDue({ attemptedAt: now - dayMs }, now));
  assert.ok(isCheckDue({ attemptedAt: now + 60_000 }, now));
});

test("the notice: only for a newer release, at most once a day, with how much older the running one is", () => {
  assert.is(
    noticeFor({}, latest, running, now),
    "You are running an older version of mc released 10 months before the latest release RELEASE.2026-11-18T09-15-00Z. Update: Run `mc update`",
  );
  assert.is(noticeFor({ shownAt: now - 1000 }, latest, running, now), undefined);
  assert.ok(noticeFor({ shownAt: now - dayMs }, latest, running, now));
  assert.is(noticeFor({}, running.id, running, now), undefined, "same release");
  assert.is(noticeFor({}, "RELEASE.2025-01-01T00-00-00Z", running, now), undefined, "older release");
  assert.is(noticeFor({}, "not-a-release", running, now), undefined);
  assert.is(noticeFor({}, undefined, running, now), undefined);
  assert.match(noticeFor({}, `${running.id}.hotfix.1a2b`, running, now) ?? "", /released moments before/);
});

test("released-before wording", () => {
  assert.is(releasedBefore(2 * 365 * dayMs), "2 years");
  assert.is(releasedBefore(31 * dayMs), "1 month");
  assert.is(releasedBefore(15 * dayMs), "2 weeks");
  assert.is(releasedBefore(dayMs), "1 day");
  assert.is(releasedBefore(3 * 3600_000), "3 hours");
});

test("a damaged state file reads as a first run", () => {
  assert.equal(parseState(undefined), {});
  assert.equal(parseState("{not json"), {});
  assert.equal(parseState('{"attemptedAt":"yesterday","latest":7,"shownAt":5}'), { attemptedAt: undefined, latest: undefined, shownAt: 5 });
});

test.run();
