import { test } from "uvu";
import * as assert from "uvu/assert";
import { describeError, mcError, s3Code } from "./errors.js";

const s3Error = (code: string, message = ""): Error => Object.assign(new Error(message), { code });

test("s3Code: takes every CamelCase S3 code, digits included, and no errno code", () => {
  for (const code of ["NoSuchKey", "XAmzContentSHA256Mismatch", "InvalidDigest", "BadDigest", "AccessDenied", "Http400"]) assert.is(s3Code(s3Error(code)), code);
  for (const code of ["ECONNREFUSED", "ENOENT", "EPIPE", "ERR_STREAM_PREMATURE_CLOSE", "UND_ERR_SOCKET", ""]) assert.is(s3Code(s3Error(code)), "");
  assert.is(s3Code({ code: 42 }), "");
  assert.is(s3Code(undefined), "");
});

test("describeError: a server code with an empty <Message> still says what happened", () => {
  const d = describeError(mcError("Failed to copy `a`.", s3Error("XAmzContentSHA256Mismatch")));
  assert.match(d.causeMessage, /damaged on the way/);
  assert.is(d.causeError.Code, "XAmzContentSHA256Mismatch");
  const unknown = describeError(mcError("Failed to copy `a`.", s3Error("SomeNew2Code")));
  assert.is(unknown.causeMessage, "SomeNew2Code");
});

test.run();
