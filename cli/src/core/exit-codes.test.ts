import { AppError } from "@mc/shared";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { exitCodeOf } from "./exit-codes.js";

const codes = suite("exit codes (contracts/mc.md §4)");

codes("should exit 0 without an error", () => {
  assert.is(exitCodeOf(undefined), 0);
});

codes("should exit 1 for any error of an ordinary command :: every reason", () => {
  assert.is(exitCodeOf(new AppError("not_found", "Object does not exist"), { command: "cat" }), 1);
  assert.is(exitCodeOf(new AppError("invalid_argument", "bad flag"), { command: "cp" }), 1);
  assert.is(exitCodeOf(new Error("boom")), 1);
  assert.is(exitCodeOf("a string"), 1);
});

codes("should exit 255 for a failing mc update", () => {
  assert.is(exitCodeOf(new AppError("unavailable", "cannot reach the release server"), { command: "update" }), 255);
});

codes("should exit 128+n for signals", () => {
  assert.is(exitCodeOf(undefined, { signal: "SIGINT" }), 130);
  assert.is(exitCodeOf(undefined, { signal: "SIGKILL" }), 137);
  assert.is(exitCodeOf(new Error("x"), { signal: "SIGTERM" }), 143);
  assert.is(exitCodeOf(undefined, { signal: "SIGPIPE" }), 141);
});

codes.run();
