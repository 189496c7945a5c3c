import { createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ed25519KeyPairFromSeed, ed25519Sign, ed25519Verify, generateKey, initCrypto } from "./index.js";
import { expectAppError, fromHex, readVectorJson, toHex, utf8 } from "../testing/test-helpers.js";

interface Rfc8032 {
  readonly vectors: readonly { name: string; secretKey: string; publicKey: string; message: string; signature: string }[];
}

interface WycheproofEddsa {
  readonly numberOfTests: number;
  readonly testGroups: readonly {
    readonly publicKey: { readonly pk: string };
    readonly tests: readonly { tcId: number; msg: string; sig: string; result: "valid" | "invalid" }[];
  }[];
}

// ---
const Rfc = suite("ed25519 :: RFC 8032");
Rfc.before(() => initCrypto());

Rfc("should match all five section 7.1 vectors :: key pair, signature, verification", () => {
  const data = readVectorJson<Rfc8032>("ed25519/rfc8032-ed25519.json");
  assert.is(data.vectors.length, 5);
  for (const v of data.vectors) {
    const pair = ed25519KeyPairFromSeed(fromHex(v.secretKey));
    assert.is(toHex(pair.publicKey), v.publicKey, v.name);
    assert.is(toHex(pair.secretKey), v.secretKey + v.publicKey, v.name);
    const message = fromHex(v.message);
    assert.is(toHex(ed25519Sign(pair.secretKey, message)), v.signature, v.name);
    assert.ok(ed25519Verify(pair.publicKey, message, fromHex(v.signature)), v.name);
  }
});

Rfc.run();

// ---
const Wycheproof = suite("ed25519 :: Wycheproof");
Wycheproof.before(() => initCrypto());

Wycheproof("should accept every valid and reject every invalid case :: ed25519_test.json (151 cases)", () => {
  const data = readVectorJson<WycheproofEddsa>("ed25519/wycheproof/ed25519_test.json");
  let count = 0;
  for (const group of data.testGroups) {
    const publicKey = fromHex(group.publicKey.pk);
    for (const test of group.tests) {
      count += 1;
      const ok = ed25519Verify(publicKey, fromHex(test.msg), fromHex(test.sig));
      assert.is(ok, test.result === "valid", `tcId ${test.tcId}`);
    }
  }
  assert.is(count, data.numberOfTests);
  assert.is(count, 151);
});

Wycheproof.run();

// ---
const Api = suite("ed25519 :: API");
Api.before(() => initCrypto());

Api("should interoperate with node:crypto :: both directions", () => {
  const seed = generateKey();
  const pair = ed25519KeyPairFromSeed(seed);
  const message = utf8("release mc.RELEASE.2024-05-01T01-11-10Z");
  // PKCS#8 / SPKI DER prefixes for a raw Ed25519 seed and public key (RFC 8410).
  const nodePrivate = createPrivateKey({
    key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]),
    format: "der",
    type: "pkcs8",
  });
  const nodePublic = createPublicKey({
    key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), pair.publicKey]),
    format: "der",
    type: "spki",
  });
  assert.ok(nodeVerify(null, message, nodePublic, ed25519Sign(pair.secretKey, message)));
  assert.ok(ed25519Verify(pair.publicKey, message, new Uint8Array(nodeSign(null, message, nodePrivate))));
});

Api("should not verify tampered input :: message, signature, other key", () => {
  const pair = ed25519KeyPairFromSeed(generateKey());
  const message = utf8("hello");
  const signature = ed25519Sign(pair.secretKey, message);
  assert.ok(ed25519Verify(pair.publicKey, message, signature));
  assert.not.ok(ed25519Verify(pair.publicKey, utf8("hellp"), signature));
  for (let i = 0; i < 64; i += 1) {
    const bad = signature.slice();
    bad[i] = (bad[i] ?? 0) ^ 0x04;
    assert.not.ok(ed25519Verify(pair.publicKey, message, bad), `byte ${i}`);
  }
  assert.not.ok(ed25519Verify(ed25519KeyPairFromSeed(generateKey()).publicKey, message, signature));
  assert.not.ok(ed25519Verify(pair.publicKey, message, signature.subarray(0, 63)));
  assert.not.ok(ed25519Verify(pair.publicKey, message, new Uint8Array([...signature, 0])));
});

Api("should reject keys of the wrong length :: clear message", () => {
  const pair = ed25519KeyPairFromSeed(generateKey());
  expectAppError(() => ed25519KeyPairFromSeed(new Uint8Array(31)), "invalid_argument", "Ed25519 seed must be 32 bytes, got 31");
  expectAppError(() => ed25519Sign(pair.secretKey.subarray(0, 32), utf8("m")), "invalid_argument", "Ed25519 secret key must be 64 bytes, got 32");
  expectAppError(() => ed25519Verify(new Uint8Array(33), utf8("m"), new Uint8Array(64)), "invalid_argument", "Ed25519 public key must be 32 bytes, got 33");
});

Api.run();
