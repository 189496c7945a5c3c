// MinIO's admin payload encryption both ways: our bodies decrypt with the
// reference library's DecryptData, the reference's EncryptData bodies decrypt
// in ours, and damage (a flipped byte, a dropped fragment, another key) is
// refused by both (issue 24).
import { randomBytes } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { initCrypto } from "../../wasm/src/init-crypto.js";
import { decryptData, encryptData } from "../../cli/src/minio-admin/payload-crypto.js";
import { referenceDecrypt, referenceEncrypt } from "./go-driver.js";

const secret = "wJalrXUtnFEMI-K7MDENG-bPxRfiCY+EXAMPLE";
// Empty, one byte, exactly one 16 KiB fragment, one byte more, and several fragments.
const sizes = [0, 1, 16384, 16385, 40000];

const Crypto = suite("admin payload crypto against madmin-go");
Crypto.before(() => initCrypto());

Crypto("our EncryptData bodies decrypt with the reference's DecryptData", async () => {
  for (const size of sizes) {
    const plain = randomBytes(size);
    const sealed = encryptData(secret, plain);
    assert.is(sealed[32], 1, "ChaCha20-Poly1305 with Argon2id");
    const back = await referenceDecrypt(secret, sealed);
    assert.ok(back.ok, `size ${size}: ${back.ok ? "" : back.error}`);
    if (back.ok) assert.ok(back.plain.equals(plain), `size ${size}`);
  }
});

Crypto("the reference's EncryptData bodies decrypt in ours", async () => {
  for (const size of sizes) {
    const plain = randomBytes(size);
    const sealed = await referenceEncrypt(secret, plain);
    assert.ok([0, 1].includes(sealed[32] ?? -1), "an Argon2id AEAD id");
    assert.ok(Buffer.from(decryptData(secret, sealed)).equals(plain), `size ${size}`);
  }
});

Crypto("a flipped byte anywhere is refused by both", async () => {
  const plain = randomBytes(20000);
  const ours = encryptData(secret, plain);
  const theirs = await referenceEncrypt(secret, plain);
  // salt, nonce, first fragment, second fragment's tag
  for (const at of [5, 35, 100, theirs.length - 1]) {
    const a = Buffer.from(ours);
    a[at] = (a[at] ?? 0) ^ 0x01;
    const r = await referenceDecrypt(secret, a);
    assert.ok(!r.ok, `reference accepted our body flipped at ${at}`);
    const b = Buffer.from(theirs);
    b[at] = (b[at] ?? 0) ^ 0x01;
    assert.throws(() => decryptData(secret, b), /not authentic/, `ours accepted the reference's body flipped at ${at}`);
  }
});

Crypto("a dropped last fragment, a truncated body and another secret key are refused by both", async () => {
  const plain = randomBytes(20000);
  const ours = encryptData(secret, plain);
  const theirs = await referenceEncrypt(secret, plain);
  const firstFragmentEnd = 41 + 16384 + 16;
  assert.ok(!(await referenceDecrypt(secret, ours.subarray(0, firstFragmentEnd))).ok, "reference accepted a body without its final fragment");
  assert.throws(() => decryptData(secret, theirs.subarray(0, firstFragmentEnd)), /not authentic/);
  assert.throws(() => decryptData(secret, theirs.subarray(0, 30)), /not authentic/);
  assert.ok(!(await referenceDecrypt("another secret", ours)).ok);
  assert.throws(() => decryptData("another secret", theirs), /not authentic/);
});

Crypto.run();
