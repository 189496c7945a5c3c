import sodium from "libsodium-wrappers-sumo";
import { scryptSync } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import {
  createMinisignKeyPair,
  decryptMinisignSecretKey,
  encryptMinisignSecretKey,
  formatMinisignPublicKey,
  formatMinisignSecretKey,
  initCrypto,
  minisignKeyIdHex,
  minisignPublicKeyLine,
  parseMinisignPublicKey,
  parseMinisignSecretKey,
  signMinisign,
  verifyMinisign,
} from "./index.js";
import { scryptParams } from "./minisign-key-encryption.js";
import { expectAppError, expectAppErrorAsync, fromHex, toHex, utf8 } from "../testing/test-helpers.js";

/** Rewrites the base64 line of a two-line key file through `edit`. */
function editBlob(file: string, edit: (blob: Buffer) => void): string {
  const [comment = "", line = ""] = file.split("\n");
  const blob = Buffer.from(line, "base64");
  edit(blob);
  return `${comment}\n${blob.toString("base64")}\n`;
}

// Cheap scrypt limits for tests: N = 2^14, r = 8, p = 1 (16 MiB).
const cheap = { opsLimit: 524_288, memLimit: 16_777_216 };

// ---
const Public = suite("minisign :: public keys");
Public.before(() => initCrypto());

Public("should write and read .pub files :: file, bare line, CRLF", () => {
  const key = createMinisignKeyPair(new Uint8Array(32).fill(5), fromHex("0a00000000000000"));
  const file = formatMinisignPublicKey(key);
  assert.is(file, `untrusted comment: minisign public key 000000000000000A\n${minisignPublicKeyLine(key)}\n`);
  assert.ok(minisignPublicKeyLine(key).startsWith("RW"));
  for (const text of [file, minisignPublicKeyLine(key), ` ${minisignPublicKeyLine(key)}\n`, file.replaceAll("\n", "\r\n")]) {
    const parsed = parseMinisignPublicKey(text);
    assert.equal(parsed.keyId, key.keyId);
    assert.equal(parsed.publicKey, key.publicKey);
  }
  assert.is(minisignKeyIdHex(fromHex("1fe8b442180f62e7")), "E7620F1842B4E81F");
});

Public("should reject malformed public keys :: length, algorithm, base64, extra lines", () => {
  const line = minisignPublicKeyLine(createMinisignKeyPair());
  const bad = [
    line.slice(0, 52),
    Buffer.concat([Buffer.from("ED"), Buffer.from(line, "base64").subarray(2)]).toString("base64"),
    `${line.slice(0, 55)}!`,
    `untrusted comment: x\n${line}\nextra\n`,
    "",
  ];
  for (const text of bad) {
    const error = expectAppError(() => parseMinisignPublicKey(text), "invalid_argument", /^minisign public key is malformed/);
    assert.is(error.details["minisign"], "malformed");
  }
});

Public.run();

// ---
const Secret = suite("minisign :: unencrypted secret keys");
Secret.before(() => initCrypto());

Secret("should round-trip our secret key file :: minisign layout, real checksum", () => {
  const key = createMinisignKeyPair();
  const file = formatMinisignSecretKey(key);
  assert.ok(file.startsWith("untrusted comment: minisign unencrypted secret key\nRWQAAEIy"));
  const blob = Buffer.from(file.split("\n")[1] ?? "", "base64");
  assert.is(blob.length, 158);
  assert.is(blob.subarray(0, 6).toString("latin1"), "Ed\0\0B2");
  assert.ok(blob.subarray(6, 54).every((byte) => byte === 0), "salt and limits are zero");
  const parsed = parseMinisignSecretKey(file);
  assert.equal(parsed, key);
  assert.ok(verifyMinisign(key, utf8("x"), signMinisign(parsed, utf8("x"))).prehashed);
});

Secret("should accept minisign 0.11's zero checksum :: minisign -G -W output", () => {
  const key = createMinisignKeyPair();
  const zeroed = editBlob(formatMinisignSecretKey(key), (blob) => blob.fill(0, 126));
  assert.equal(parseMinisignSecretKey(zeroed), key);
});

Secret("should reject damaged secret keys :: checksum, seed/public key mismatch, algorithm, encrypted", () => {
  const file = formatMinisignSecretKey(createMinisignKeyPair());
  const badChecksum = editBlob(file, (blob) => {
    blob[157] = (blob[157] ?? 0) ^ 1;
  });
  expectAppError(() => parseMinisignSecretKey(badChecksum), "invalid_argument", "minisign secret key is malformed: checksum mismatch");
  // Public half altered along with a zeroed checksum: the seed no longer matches.
  const badPublic = editBlob(file, (blob) => {
    blob[100] = (blob[100] ?? 0) ^ 1;
    blob.fill(0, 126);
  });
  expectAppError(() => parseMinisignSecretKey(badPublic), "invalid_argument", /public key does not match the seed/);
  const badKdf = editBlob(file, (blob) => blob.write("Xx", 2, "latin1"));
  expectAppError(() => parseMinisignSecretKey(badKdf), "invalid_argument", /unsupported key derivation/);
  const encrypted = editBlob(file, (blob) => blob.write("Sc", 2, "latin1"));
  expectAppError(() => parseMinisignSecretKey(encrypted), "failed_precondition", /decryptMinisignSecretKey/);
  expectAppError(() => parseMinisignSecretKey(file.split("\n")[1] ?? ""), "invalid_argument", /comment line and a key line/);
});

Secret.run();

// ---
const Encrypted = suite("minisign :: encrypted secret keys");
Encrypted.before(() => initCrypto());

Encrypted("should pick scrypt parameters exactly like libsodium :: several (opslimit, memlimit) pairs", () => {
  assert.equal(scryptParams({ opsLimit: 33_554_432, memLimit: 1_073_741_824 }), { N: 2 ** 20, r: 8, p: 1 });
  const password = utf8("pick params");
  const salt = new Uint8Array(32).fill(9);
  for (const limits of [cheap, { opsLimit: 32_768, memLimit: 16_777_216 }, { opsLimit: 1_048_576, memLimit: 1_048_576 }, { opsLimit: 100, memLimit: 8_388_608 }]) {
    const { N, r, p } = scryptParams(limits);
    const ours = scryptSync(password, salt, 32, { N, r, p, maxmem: 256 * 1024 * 1024 });
    const theirs = sodium.crypto_pwhash_scryptsalsa208sha256(32, password, salt, limits.opsLimit, limits.memLimit);
    assert.is(ours.toString("hex"), toHex(theirs), JSON.stringify({ limits, N, r, p }));
  }
});

Encrypted("should round-trip a password-protected key :: right password, wrong password", async () => {
  const key = createMinisignKeyPair();
  const file = await encryptMinisignSecretKey(key, "correct horse", cheap);
  assert.ok(file.startsWith("untrusted comment: minisign encrypted secret key\nRWRTY0Iy"));
  assert.equal(await decryptMinisignSecretKey(file, "correct horse"), key);
  assert.equal(await decryptMinisignSecretKey(file, utf8("correct horse")), key);
  const wrong = await expectAppErrorAsync(() => decryptMinisignSecretKey(file, "correct horsf"), "invalid_argument", "wrong password for that minisign secret key");
  assert.is(wrong.details["minisign"], "wrong_password");
  // Unencrypted files pass through decrypt unchanged, whatever the password.
  assert.equal(await decryptMinisignSecretKey(formatMinisignSecretKey(key), "ignored"), key);
  // Two encryptions of one key differ (fresh salt).
  assert.is.not(await encryptMinisignSecretKey(key, "correct horse", cheap), file);
});

Encrypted("should refuse oversized scrypt parameters :: more than 1 GiB", async () => {
  const file = await encryptMinisignSecretKey(createMinisignKeyPair(), "pw", cheap);
  // opslimit 2^26, memlimit 2^31: libsodium would pick N = 2^21, r = 8 (2 GiB).
  const huge = editBlob(file, (blob) => {
    blob.writeBigUInt64LE(2n ** 26n, 38);
    blob.writeBigUInt64LE(2n ** 31n, 46);
  });
  assert.equal(scryptParams({ opsLimit: 2 ** 26, memLimit: 2 ** 31 }), { N: 2 ** 21, r: 8, p: 1 });
  await expectAppErrorAsync(() => decryptMinisignSecretKey(huge, "pw"), "invalid_argument", /scrypt parameters out of range/);
});

Encrypted.run();
