import { test } from "uvu";
import * as assert from "uvu/assert";
import { joinDashValues } from "./dash-values.js";

test("joins a version id that begins with a dash to its option", () => {
  assert.equal(joinDashValues(["rm", "--version-id", "-Ab3", "a/b"]), ["rm", "--version-id=-Ab3", "a/b"]);
  assert.equal(joinDashValues(["rm", "--vid", "--x", "a/b"]), ["rm", "--vid=--x", "a/b"]);
});

test("leaves ordinary values, other options and words after -- alone", () => {
  assert.equal(joinDashValues(["rm", "--version-id", "Ab3", "-r"]), ["rm", "--version-id", "Ab3", "-r"]);
  assert.equal(joinDashValues(["rm", "--force", "-r", "a/b"]), ["rm", "--force", "-r", "a/b"]);
  assert.equal(joinDashValues(["cat", "--", "--vid", "-x"]), ["cat", "--", "--vid", "-x"]);
  assert.equal(joinDashValues(["rm", "--vid"]), ["rm", "--vid"]);
});

test.run();
