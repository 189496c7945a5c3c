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

test("describeError: a file error gives the system's words, not Node's syscall text", () => {
  const fsError = (code: string, syscall: string): Error => Object.assign(new Error(`${code}: some text, ${syscall}`), { code, syscall });
  assert.is(describeError(mcError("Failed to copy `a`.", fsError("ENOSPC", "write"))).causeMessage, "No space left on device.");
  assert.is(describeError(mcError("Failed to copy `a`.", fsError("EROFS", "open"))).causeMessage, "Read-only file system.");
  assert.is(describeError(mcError("Failed to copy `a`.", fsError("ENOTDIR", "mkdir"))).causeMessage, "Not a directory.");
  // A code without words of its own keeps Node's text.
  assert.is(describeError(mcError("Failed to copy `a`.", fsError("EXDEV", "rename"))).causeMessage, "EXDEV: some text, rename");
});

test.run();
