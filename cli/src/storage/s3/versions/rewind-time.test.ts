import { test } from "uvu";
import * as assert from "uvu/assert";
import { isAppError } from "@mc/shared";
import { parseRewind } from "./rewind-time.js";

const now = Date.parse("2026-11-22T12:00:00Z");

test("reads a duration back from now", () => {
  assert.is(parseRewind("1d", now).toISOString(), "2026-11-21T12:00:00.000Z");
  assert.is(parseRewind("1h30m", now).toISOString(), "2026-11-22T10:30:00.000Z");
});

test("reads mc's dotted UTC times and RFC 3339 times with a zone", () => {
  assert.is(parseRewind("2026.01.02", now).toISOString(), "2026-01-02T00:00:00.000Z");
  assert.is(parseRewind("2026.01.02T15:04", now).toISOString(), "2026-01-02T15:04:00.000Z");
  assert.is(parseRewind("2026.01.02T15:04:05", now).toISOString(), "2026-01-02T15:04:05.000Z");
  assert.is(parseRewind("2026-01-02T15:04:05+02:00", now).toISOString(), "2026-01-02T13:04:05.000Z");
  assert.is(parseRewind("2026-01-02T15:04:05.250Z", now).toISOString(), "2026-01-02T15:04:05.250Z");
});

test("refuses anything else as a usage error naming the value", () => {
  for (const bad of ["", "yesterday", "7x", "2026.02.30", "2026.01.02T25:00", "2026-01-02T15:04:05", "2026/01/02", "-1d"]) {
    try {
      parseRewind(bad, now);
      assert.unreachable(bad);
    } catch (err) {
      assert.ok(isAppError(err) && err.reason === "invalid_argument", bad);
      assert.match((err as Error).message, `invalid --rewind \`${bad}\``);
    }
  }
});

test.run();
