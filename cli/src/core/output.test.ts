import { Writable } from "node:stream";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { describeError, mcError } from "./errors.js";
import { createOutput } from "./output.js";
import { suggest } from "./suggest.js";

function sink(isTTY: boolean): Writable & { isTTY: boolean; text: () => string } {
  const chunks: string[] = [];
  const w = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return Object.assign(w, { isTTY, text: () => chunks.join("") });
}

const output = suite("output (contracts/mc.md §1, §4)");

output("should print one JSON line when stdout is not a terminal and indent by one space on a terminal", () => {
  const pipe = sink(false);
  createOutput({ json: true, quiet: false, debug: false, stdout: pipe, stderr: sink(false) }).printJson({ a: 1, b: [2] });
  assert.is(pipe.text(), '{"a":1,"b":[2]}\n');
  const tty = sink(true);
  createOutput({ json: true, quiet: false, debug: false, stdout: tty, stderr: sink(true) }).printJson({ a: 1 });
  assert.is(tty.text(), '{\n "a": 1\n}\n');
});

output("should force quiet mode on a pipe and with --json", () => {
  assert.ok(createOutput({ json: false, quiet: false, debug: false, stdout: sink(false), stderr: sink(false) }).quiet);
  assert.ok(createOutput({ json: true, quiet: false, debug: false, stdout: sink(true), stderr: sink(true) }).quiet);
  assert.not.ok(createOutput({ json: false, quiet: false, debug: false, stdout: sink(true), stderr: sink(true) }).quiet);
});

output("should write `mc: <ERROR> <msg> <Cause>.` to stderr and error JSON to stdout", () => {
  const stderr = sink(false);
  const err = mcError("Unable to stat `a/b`.", Object.assign(new Error("x"), { code: "NoSuchKey" }));
  createOutput({ json: false, quiet: false, debug: false, stdout: sink(false), stderr }).error(err, "fatal");
  assert.is(stderr.text(), "mc: <ERROR> Unable to stat `a/b`. Object does not exist.\n");
  const stdout = sink(false);
  createOutput({ json: true, quiet: false, debug: false, stdout, stderr: sink(false) }).error(err, "fatal");
  const parsed = JSON.parse(stdout.text()) as { status: string; error: { type: string; cause: { error: { Code: string } } } };
  assert.is(parsed.status, "error");
  assert.is(parsed.error.type, "fatal");
  assert.is(parsed.error.cause.error.Code, "NoSuchKey");
});

output("should never print an empty message or cause message in error JSON", () => {
  for (const err of [mcError("No such alias `x` found."), new Error(""), Object.assign(new Error(""), { code: "EIO" }), ""]) {
    const stdout = sink(false);
    createOutput({ json: true, quiet: false, debug: false, stdout, stderr: sink(false) }).error(err, "fatal");
    const parsed = JSON.parse(stdout.text()) as { error: { message: string; cause: { message: string } } };
    assert.ok(parsed.error.message.trim() !== "", stdout.text());
    assert.ok(parsed.error.cause.message.trim() !== "", stdout.text());
  }
  const stderr = sink(false);
  createOutput({ json: false, quiet: false, debug: false, stdout: sink(false), stderr }).error(mcError("No such alias `x` found."), "fatal");
  assert.is(stderr.text(), "mc: <ERROR> No such alias `x` found.\n");
});

output.run();

// ---

const errors = suite("errors");

errors("should not mistake errno codes for S3 codes", () => {
  const d = describeError(mcError("Unable to list `x`.", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" })));
  assert.equal(d.causeError, {});
  assert.match(d.causeMessage, /Check the URL/);
  // A cause that ends its own sentence gets no second period before the advice.
  const reset = describeError(mcError("Unable to copy `x`.", Object.assign(new Error("The peer went away."), { code: "ECONNRESET" })));
  assert.is(reset.causeMessage, "The peer went away. Check the URL of the alias and that the server is running and reachable.");
});

errors("should suggest commands by prefix or edit distance", () => {
  assert.equal(suggest("lss", ["ls", "mb", "cp"]), ["ls"]);
  assert.equal(suggest("m", ["ls", "mb", "mv"]), ["mb", "mv"]);
});

errors.run();
