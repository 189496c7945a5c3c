import { randomBytes } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { parseSseCKey, parseSseFlags, sseReadHeaders, sseWriteHeaders } from "./sse-keys.js";

const aliases = new Set(["play", "other"]);
const key = randomBytes(32);

// ---

const keys = suite("parseSseCKey");

keys("should accept 32 bytes as base64 (padded or not) or hex", () => {
  assert.ok(parseSseCKey(key.toString("base64"))?.equals(key));
  assert.ok(parseSseCKey(key.toString("base64").replace(/=$/, ""))?.equals(key));
  assert.ok(parseSseCKey(key.toString("hex"))?.equals(key));
});

keys("should refuse other lengths :: bad keys", () => {
  for (const bad of ["", "short", randomBytes(31).toString("base64"), randomBytes(33).toString("hex"), "z".repeat(64), "a".repeat(32)]) assert.is(parseSseCKey(bad), undefined, bad);
});

keys.run();

// ---

const flags = suite("parseSseFlags");

flags("should pick the longest matching prefix", () => {
  const parsed = parseSseFlags([`play/b/=${key.toString("base64")}`], ["play/b/k/=kms-key,other/x=k2"], aliases);
  assert.is(parsed?.forUrl("play/b/k/obj")?.kind, "sse-kms");
  assert.is(parsed?.forUrl("play/b/obj")?.kind, "sse-c");
  assert.is(parsed?.forUrl("other/x/y")?.kind, "sse-kms");
  assert.is(parsed?.forUrl("play/c/obj"), undefined);
  assert.is(parseSseFlags([], [], aliases), undefined);
});

flags("should refuse unknown aliases, missing keys and duplicates", () => {
  assert.throws(() => parseSseFlags([`nope/b=${key.toString("hex")}`], [], aliases), /`nope` is not an alias/);
  assert.throws(() => parseSseFlags(["play/b="], [], aliases), /needs "alias\/prefix=KEY"/);
  assert.throws(() => parseSseFlags(["play/b=abc"], [], aliases), /must be 32 bytes/);
  assert.throws(() => parseSseFlags([`play/b=${key.toString("hex")}`], ["play/b=k"], aliases), /more than one encryption key/);
});

flags("should send the key and its MD5 for SSE-C, the key id for SSE-KMS", () => {
  const c = sseWriteHeaders({ kind: "sse-c", key });
  assert.is(c["X-Amz-Server-Side-Encryption-Customer-Key"], key.toString("base64"));
  assert.is(c["X-Amz-Server-Side-Encryption-Customer-Algorithm"], "AES256");
  assert.equal(sseWriteHeaders({ kind: "sse-kms", keyId: "k" }), { "X-Amz-Server-Side-Encryption": "aws:kms", "X-Amz-Server-Side-Encryption-Aws-Kms-Key-Id": "k" });
  assert.equal(sseReadHeaders({ kind: "sse-kms", keyId: "k" }), {});
});

flags("should take --enc-s3 as a bare prefix, ask the server for AES256 on writes and send nothing on reads", () => {
  const parsed = parseSseFlags([], [], aliases, ["play/b/s3,other/x"]);
  assert.equal(parsed?.forUrl("play/b/s3/obj"), { kind: "sse-s3" });
  assert.equal(parsed?.forUrl("other/x/y"), { kind: "sse-s3" });
  assert.equal(sseWriteHeaders({ kind: "sse-s3" }), { "X-Amz-Server-Side-Encryption": "AES256" });
  assert.equal(sseReadHeaders({ kind: "sse-s3" }), {});
  assert.throws(() => parseSseFlags([], [], aliases, ["play/b=key"]), /--enc-s3 takes "alias\/prefix"/);
  assert.throws(() => parseSseFlags([], [], aliases, ["nope/b"]), /`nope` is not an alias/);
  assert.throws(() => parseSseFlags([], ["play/b=k"], aliases, ["play/b"]), /more than one encryption key/);
});

flags.run();
