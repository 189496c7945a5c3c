import { suite } from "uvu";
import * as assert from "uvu/assert";
import {
  createMinisignKeyPair,
  initCrypto,
  maxTrustedCommentBytes,
  minisignPublicKeyOf,
  signMinisign,
  verifyMinisign,
  type MinisignSecretKey,
} from "./index.js";
import { expectAppError, fromHex, utf8 } from "../testing/test-helpers.js";

const message = utf8("mc binary bytes\n");

function failureOf(fn: () => unknown): string | undefined {
  return expectAppError(fn, "invalid_argument").details["minisign"];
}

function replaceLine(file: string, index: number, line: string): string {
  const lines = file.split("\n");
  lines[index] = line;
  return lines.join("\n");
}

// ---
const Sign = suite("signMinisign");
let key: MinisignSecretKey;
Sign.before(async () => {
  await initCrypto();
  key = createMinisignKeyPair();
});

Sign("should produce minisign's default layout :: prehashed ED, hashed trusted comment", () => {
  const file = signMinisign(key, message, { fileName: "mc", timestamp: 1714525870 });
  const lines = file.split("\n");
  assert.is(lines.length, 5);
  assert.is(lines[0], "untrusted comment: signature from minisign secret key");
  assert.ok(lines[1]?.startsWith("RU"), "ED lines start with RU");
  assert.is(lines[1]?.length, 100);
  assert.is(lines[2], "trusted comment: timestamp:1714525870\tfile:mc\thashed");
  assert.is(lines[3]?.length, 88);
  assert.is(lines[4], "");
  const verified = verifyMinisign(minisignPublicKeyOf(key), message, file, { requirePrehashed: true });
  assert.equal(verified, { trustedComment: "timestamp:1714525870\tfile:mc\thashed", untrustedComment: "signature from minisign secret key", prehashed: true });
});

Sign("should sign legacy Ed on request :: raw message, no hashed suffix", () => {
  const file = signMinisign(key, message, { legacy: true, timestamp: 1, untrustedComment: "legacy" });
  assert.ok(file.split("\n")[1]?.startsWith("RW"));
  const verified = verifyMinisign(key, message, file);
  assert.is(verified.prehashed, false);
  assert.is(verified.trustedComment, "timestamp:1");
  assert.is(verified.untrustedComment, "legacy");
});

Sign("should be deterministic for a pinned key :: same seed, id and comment", () => {
  const pinned = createMinisignKeyPair(new Uint8Array(32).fill(1), fromHex("0102030405060708"));
  const options = { trustedComment: "release 1" };
  assert.is(signMinisign(pinned, message, options), signMinisign(pinned, message, options));
  const line = signMinisign(pinned, message, options).split("\n")[1] ?? "";
  assert.is(Buffer.from(line, "base64").subarray(0, 10).toString("hex"), "45440102030405060708");
});

Sign("should default the timestamp to now :: seconds", () => {
  const before = Math.floor(Date.now() / 1000);
  const comment = verifyMinisign(key, message, signMinisign(key, message)).trustedComment;
  const timestamp = Number(/^timestamp:(\d+)\thashed$/.exec(comment)?.[1]);
  assert.ok(timestamp >= before && timestamp <= before + 5, comment);
});

Sign("should refuse comments the reference reader would reject :: newline, control character, too long", () => {
  expectAppError(() => signMinisign(key, message, { trustedComment: "a\nb" }), "invalid_argument", /trusted comment must be one line/);
  expectAppError(() => signMinisign(key, message, { trustedComment: "a\rb" }), "invalid_argument", /trusted comment/);
  expectAppError(() => signMinisign(key, message, { untrustedComment: "a\u0000" }), "invalid_argument", /untrusted comment/);
  expectAppError(() => signMinisign(key, message, { fileName: "x\ny" }), "invalid_argument", /trusted comment/);
  expectAppError(() => signMinisign(key, message, { trustedComment: "\ud800" }), "invalid_argument", /trusted comment/);
  const longest = "x".repeat(maxTrustedCommentBytes);
  assert.is(verifyMinisign(key, message, signMinisign(key, message, { trustedComment: longest })).trustedComment, longest);
  expectAppError(() => signMinisign(key, message, { trustedComment: `${longest}x` }), "invalid_argument", /at most 8173 bytes/);
  // Tabs and non-ASCII text are fine.
  const text = "version:1.2\tnote:größer ✓";
  assert.is(verifyMinisign(key, message, signMinisign(key, message, { trustedComment: text })).trustedComment, text);
});

Sign.run();

// ---
const Tamper = suite("verifyMinisign :: tampering");
let signer: MinisignSecretKey;
Tamper.before(async () => {
  await initCrypto();
  signer = createMinisignKeyPair();
});

for (const legacy of [false, true]) {
  const variant = legacy ? "legacy Ed" : "prehashed ED";
  Tamper(`should fail on a modified file or trusted comment :: ${variant}`, () => {
    const file = signMinisign(signer, message, { trustedComment: "timestamp:1\tfile:mc", legacy });
    for (let i = 0; i < message.length; i += 1) {
      const modified = message.slice();
      modified[i] = (modified[i] ?? 0) ^ 1;
      assert.is(failureOf(() => verifyMinisign(signer, modified, file)), "bad_signature");
    }
    assert.is(failureOf(() => verifyMinisign(signer, message.subarray(1), file)), "bad_signature");
    assert.is(failureOf(() => verifyMinisign(signer, utf8("mc binary bytes\n\n"), file)), "bad_signature");
    const comment = replaceLine(file, 2, "trusted comment: timestamp:2\tfile:mc");
    assert.is(failureOf(() => verifyMinisign(signer, message, comment)), "bad_trusted_comment");
    const trailingSpace = replaceLine(file, 2, "trusted comment: timestamp:1\tfile:mc ");
    assert.is(failureOf(() => verifyMinisign(signer, message, trailingSpace)), "bad_trusted_comment");
    // The untrusted comment is not covered by anything, by design.
    const untrusted = replaceLine(file, 0, "untrusted comment: anything");
    assert.is(verifyMinisign(signer, message, untrusted).untrustedComment, "anything");
  });
}

Tamper("should fail on modified signature bytes :: algorithm, key id, signature, global signature", () => {
  const file = signMinisign(signer, message);
  const lines = file.split("\n");
  const blob = Buffer.from(lines[1] ?? "", "base64");
  const global = Buffer.from(lines[3] ?? "", "base64");
  const expected = (i: number): string =>
    i === 0 ? "malformed" : i === 1 ? "bad_signature" : i < 10 ? "key_id_mismatch" : "bad_signature";
  for (let i = 0; i < blob.length; i += 1) {
    const bad = Buffer.from(blob);
    bad[i] = (bad[i] ?? 0) ^ (i === 1 ? 0x20 : 0x01); // byte 1: "D" <-> "d" switches ED/Ed
    assert.is(failureOf(() => verifyMinisign(signer, message, replaceLine(file, 1, bad.toString("base64")))), expected(i), `byte ${i}`);
  }
  for (let i = 0; i < global.length; i += 1) {
    const bad = Buffer.from(global);
    bad[i] = (bad[i] ?? 0) ^ 0x01;
    assert.is(failureOf(() => verifyMinisign(signer, message, replaceLine(file, 3, bad.toString("base64")))), "bad_trusted_comment");
  }
  const other = createMinisignKeyPair(undefined, signer.keyId);
  assert.is(failureOf(() => verifyMinisign(other, message, file)), "bad_signature");
});

Tamper("should reject malformed files :: lines, prefixes, base64, algorithm", () => {
  const file = signMinisign(signer, message);
  const lines = file.split("\n");
  const cases: [string, string][] = [
    ["three lines", lines.slice(0, 3).join("\n")],
    ["extra line", `${file}extra\n`],
    ["bad untrusted prefix", replaceLine(file, 0, "comment: x")],
    ["bad trusted prefix", replaceLine(file, 2, "trusted_comment: x")],
    ["non-canonical base64", replaceLine(file, 1, ` ${lines[1] ?? ""}`)],
    ["short signature line", replaceLine(file, 1, (lines[1] ?? "").slice(0, 96))],
    ["unknown algorithm", replaceLine(file, 1, Buffer.concat([Buffer.from("EX"), Buffer.from(lines[1] ?? "", "base64").subarray(2)]).toString("base64"))],
    ["stray carriage return", replaceLine(file, 2, "trusted comment: a\rb")],
  ];
  for (const [name, text] of cases) assert.is(failureOf(() => verifyMinisign(signer, message, text)), "malformed", name);
  assert.is(failureOf(() => verifyMinisign(signer, message, new Uint8Array([0xff, 0xfe]))), "malformed");
  // CRLF line endings and a missing final newline are accepted, as by the reference tool.
  assert.ok(verifyMinisign(signer, message, file.replaceAll("\n", "\r\n")).prehashed);
  assert.ok(verifyMinisign(signer, message, file.slice(0, -1)).prehashed);
});

Tamper.run();
