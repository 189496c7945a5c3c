import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { uvuArgs } from "../harness/uvu-command.js";

// uvu's formatter once threw on an error with a non-string `details` (our
// AppError, ConnectError): the failure's name and reason vanished and the
// rest of the suite did not run. The runner loads a hook against that.
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const check = suite("test runner: uvu failure reports");

check("should name and explain every failure, whatever its details, and keep running the suite", () => {
  const res = spawnSync(process.execPath, uvuArgs(root, "tests/fixtures/uvu-format", "^failures\\.test\\.ts$"), {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  const out = res.stdout + res.stderr;
  assert.is.not(res.status, 0, "three failing tests must fail the run");
  for (const text of ["fixture-app-error", '{"field":"key"}', "fixture-connect-error", "fixture-circular-details", "throws an AppError with a details object"]) {
    assert.ok(out.includes(text), `the report should contain ${text}:\n${out}`);
  }
  assert.match(out, /Total:\s+4/);
  assert.match(out, /Passed:\s+1/, "the passing test after the failures should have run");
});

check.run();
