import { Writable } from "node:stream";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createOutput } from "../../../core/output.js";
import { featureError, isLockBlocked } from "./versions-errors.js";
import { applyPerm, parsePolicy, permOf, rulesOf } from "./versions-policy.js";
import { parseMode, parseValidity, retainUntil } from "./versions-retention.js";
import { parseTags, tagListText } from "./versions-tags.js";

function sink(): Writable & { text: () => string } {
  const chunks: string[] = [];
  const w = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return Object.assign(w, { text: () => chunks.join("") });
}

/** What `mc` prints for an error, as text and as JSON. */
function printed(err: unknown): { text: string; json: { error: { message: string; cause: { message: string; error: { Code?: string } } } } } {
  const stderr = sink();
  createOutput({ json: false, quiet: true, debug: false, stdout: sink(), stderr }).error(err, "fatal");
  const stdout = sink();
  createOutput({ json: true, quiet: true, debug: false, stdout, stderr: sink() }).error(err, "fatal");
  return { text: stderr.text(), json: JSON.parse(stdout.text()) as never };
}

const s3Error = (code: string, message = ""): Error => Object.assign(new Error(message), { code, bucketname: "b" });

// ---

const errors = suite("featureError");

errors("should print one line naming the feature and the server's code when it is not implemented", () => {
  const out = printed(featureError("enable versioning on `a/b`", "bucket versioning", s3Error("NotImplemented")));
  assert.is(out.text, "mc: <ERROR> Bucket versioning is not supported by this server. Server error code: NotImplemented.\n");
  assert.is(out.json.error.cause.error.Code, "NotImplemented");
});

errors("should keep other server errors as `Unable to …` with the server's reason", () => {
  const out = printed(featureError("set retention on `a/b/c`", "object retention", s3Error("InvalidRequest", "object lock not configured")));
  assert.is(out.text, "mc: <ERROR> Unable to set retention on `a/b/c`. object lock not configured.\n");
  assert.is(out.json.error.cause.error.Code, "InvalidRequest");
});

errors("should recognise deletes refused by object lock only", () => {
  assert.ok(isLockBlocked(s3Error("AccessDenied", "forbidden by object lock")));
  assert.ok(isLockBlocked(s3Error("ObjectLocked")));
  assert.not.ok(isLockBlocked(s3Error("AccessDenied", "")));
});

errors.run();

// ---

const parsing = suite("tags, modes and validity");

parsing("should parse tags in query form and refuse malformed ones", () => {
  assert.equal(parseTags("a=b&c%20d=e+f&empty="), { a: "b", "c d": "e f", empty: "" });
  for (const bad of ["", "a", "=b", "a=1&a=2", "a=%zz"]) assert.throws(() => parseTags(bad), undefined, bad);
  assert.is(tagListText("a/b", "", { zz: "1", a: "2" }), "Name : a/b\na    : 2\nzz   : 1");
});

parsing("should parse modes in any case and validity in days or years", () => {
  assert.is(parseMode("Governance"), "GOVERNANCE");
  assert.throws(() => parseMode("legal"));
  assert.equal(parseValidity("30d"), { value: 30, unit: "Days" });
  assert.equal(parseValidity("1Y"), { value: 1, unit: "Years" });
  for (const bad of ["0d", "30", "d", "1.5y", "30m", "-1d"]) assert.throws(() => parseValidity(bad), undefined, bad);
  const now = new Date("2024-02-29T10:00:00.500Z");
  assert.is(retainUntil({ value: 1, unit: "Days" }, now).toISOString(), "2024-03-01T10:00:00.000Z");
  assert.is(retainUntil({ value: 1, unit: "Years" }, now).toISOString(), "2025-03-01T10:00:00.000Z");
});

parsing.run();

// ---

const policy = suite("anonymous policies");

policy("should add, read back and remove canned permissions per prefix", () => {
  let p = applyPerm(parsePolicy(""), "b", "", "download");
  assert.ok(p);
  assert.is(permOf(p, "b", ""), "download");
  assert.is(permOf(p, "b", "any/prefix"), "download");
  p = applyPerm(p, "b", "up/", "upload");
  assert.ok(p);
  assert.is(permOf(p, "b", "up/"), "public");
  assert.equal(rulesOf(p), [{ resource: "b/*", allow: "readonly" }, { resource: "b/up/*", allow: "writeonly" }]);
  p = applyPerm(p, "b", "", "none");
  assert.ok(p);
  assert.is(permOf(p, "b", ""), "private");
  assert.is(permOf(p, "b", "up/x"), "upload");
  assert.is(applyPerm(p, "b", "up/", "none"), undefined);
});

policy("should keep statements it did not write", () => {
  const foreign = parsePolicy(JSON.stringify({ Version: "2012-10-17", Statement: { Effect: "Allow", Principal: "*", Action: "s3:GetObject", Resource: "arn:aws:s3:::b/one.txt" } }));
  const p = applyPerm(foreign, "b", "", "none");
  assert.is(p?.Statement.length, 1);
  assert.equal(rulesOf(foreign), [{ resource: "b/one.txt", allow: "readonly" }]);
});

policy.run();
