import { suite } from "uvu";
import * as assert from "uvu/assert";
import {
  decryptMinisignSecretKey,
  ed25519KeyPairFromSeed,
  formatMinisignPublicKey,
  initCrypto,
  minisignKeyIdHex,
  parseMinisignPublicKey,
  verifyMinisign,
} from "./index.js";
import { expectAppError, fromHex, readVectorBytes, readVectorJson, toHex } from "../testing/test-helpers.js";

interface Example {
  readonly name: string;
  readonly publicKey: string;
  readonly publicKeyFile?: string;
  readonly signatureFile: string;
  readonly messageHex: string;
  readonly expectValid: boolean;
  readonly parsed: {
    readonly publicKeyIdHex: string;
    readonly publicKeyIdDisplay: string;
    readonly ed25519PublicKeyHex: string;
    readonly signatureAlgorithm: string;
    readonly trustedComment: string;
  };
}

const examples = (): Example[] => readVectorJson<{ vectors: Example[] }>("minisign/examples.json").vectors;

// Which check each published negative must trip.
const expectedFailure: Record<string, string> = {
  "legacy-Ed-wrong-message (rust-minisign-verify verify, message 'Test')": "bad_signature",
  "prehashed-ED-tampered-trusted-comment": "bad_trusted_comment",
  "legacy-signature-relabelled-ED": "bad_signature",
};

// ---
const Examples = suite("minisign :: examples.json");
Examples.before(() => initCrypto());

Examples("should give every vector its expected outcome :: 11 vectors, legacy Ed and prehashed ED", () => {
  const vectors = examples();
  assert.is(vectors.length, 11);
  for (const v of vectors) {
    const key = parseMinisignPublicKey(v.publicKey);
    assert.is(toHex(key.keyId), v.parsed.publicKeyIdHex, v.name);
    assert.is(minisignKeyIdHex(key.keyId), v.parsed.publicKeyIdDisplay, v.name);
    assert.is(toHex(key.publicKey), v.parsed.ed25519PublicKeyHex, v.name);
    const message = fromHex(v.messageHex);
    if (v.expectValid) {
      const verified = verifyMinisign(key, message, v.signatureFile);
      assert.is(verified.trustedComment, v.parsed.trustedComment, v.name);
      assert.is(verified.prehashed, v.parsed.signatureAlgorithm === "ED", v.name);
      // The same file given as bytes.
      assert.is(verifyMinisign(key, message, new TextEncoder().encode(v.signatureFile)).trustedComment, v.parsed.trustedComment);
    } else {
      const error = expectAppError(() => verifyMinisign(key, message, v.signatureFile), "invalid_argument");
      assert.is(error.details["minisign"], expectedFailure[v.name], v.name);
    }
  }
});

Examples("should read and rewrite .pub files byte for byte :: reference layout", () => {
  for (const v of examples()) {
    if (v.publicKeyFile === undefined) continue;
    const key = parseMinisignPublicKey(v.publicKeyFile);
    assert.is(formatMinisignPublicKey(key), v.publicKeyFile, v.name);
  }
});

Examples("should refuse legacy signatures when prehashing is required :: like minisign -H", () => {
  const legacy = examples().find((v) => v.expectValid && v.parsed.signatureAlgorithm === "Ed");
  assert.ok(legacy);
  const error = expectAppError(
    () => verifyMinisign(parseMinisignPublicKey(legacy.publicKey), fromHex(legacy.messageHex), legacy.signatureFile, { requirePrehashed: true }),
    "invalid_argument",
  );
  assert.is(error.details["minisign"], "legacy_rejected");
});

Examples.run();

// ---
const Files = suite("minisign :: aead/minisign testdata files");
Files.before(() => initCrypto());

Files("should verify message.txt with its .minisig and .pub :: files as bytes", () => {
  const key = parseMinisignPublicKey(readVectorBytes("minisign/aead-minisign-testdata/minisign.pub"));
  assert.is(minisignKeyIdHex(key.keyId), "C373193807678450");
  const verified = verifyMinisign(
    key,
    readVectorBytes("minisign/aead-minisign-testdata/message.txt"),
    readVectorBytes("minisign/aead-minisign-testdata/message.txt.minisig"),
  );
  assert.is(verified.trustedComment, "timestamp:1614549543\tfile:message.txt");
  assert.is(verified.untrustedComment, "signature from minisign secret key");
});

Files("should parse a CRLF signature file :: robtest.ps1.minisig", () => {
  // Its file and key are not published: a key with the same id but another
  // public key gets past parsing and the key-id check, then fails the signature.
  const signature = readVectorBytes("minisign/aead-minisign-testdata/robtest.ps1.minisig");
  assert.ok(new TextDecoder().decode(signature).includes("\r\n"));
  const keyId = fromHex("37972f483de9d0e9");
  const impostor = { keyId, publicKey: ed25519KeyPairFromSeed(new Uint8Array(32)).publicKey };
  const error = expectAppError(() => verifyMinisign(impostor, new Uint8Array(0), signature), "invalid_argument");
  assert.is(error.details["minisign"], "bad_signature");
  const wrongId = { keyId: new Uint8Array(8), publicKey: impostor.publicKey };
  expectAppError(() => verifyMinisign(wrongId, new Uint8Array(0), signature), "invalid_argument", /key id E9D0E93D482F9737 does not match public key 0000000000000000/);
});

Files("should decrypt the encrypted secret key with its published password :: scrypt N=2^20", async () => {
  const file = readVectorBytes("minisign/aead-minisign-testdata/minisign.key");
  const password = readVectorJson<{ secretKeyExample: { password: string } }>("minisign/examples.json").secretKeyExample.password;
  const key = await decryptMinisignSecretKey(file, password);
  const pub = parseMinisignPublicKey(readVectorBytes("minisign/aead-minisign-testdata/minisign.pub"));
  assert.equal(key.keyId, pub.keyId);
  assert.equal(key.publicKey, pub.publicKey);
  // A wrong password is tested with cheaper scrypt limits in minisign-keys.test.ts.
});

Files.run();
