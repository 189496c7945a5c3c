import { randomBytes } from "node:crypto";
import sodium from "libsodium-wrappers-sumo";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import {
  chacha20poly1305Decrypt,
  chacha20poly1305Encrypt,
  initCrypto,
  xchacha20poly1305Decrypt,
  xchacha20poly1305Encrypt,
} from "./index.js";
import { expectAppError, fromHex, readVectorJson, toHex } from "../testing/test-helpers.js";
import { decryptionFailed } from "./aead.js";
import { nativeFromBytes, nativeXChaChaDecrypt, nativeXChaChaEncrypt } from "./xchacha-native.js";

interface KnownAnswer {
  readonly name?: string;
  readonly key: string;
  readonly nonce: string;
  readonly aad: string;
  readonly plaintext: string;
  readonly ciphertext: string;
  readonly tag: string;
}

interface WycheproofAead {
  readonly numberOfTests: number;
  readonly testGroups: readonly {
    readonly tests: readonly {
      readonly tcId: number;
      readonly key: string;
      readonly iv: string;
      readonly aad: string;
      readonly msg: string;
      readonly ct: string;
      readonly tag: string;
      readonly result: "valid" | "invalid" | "acceptable";
    }[];
  }[];
}

type Encrypt = (key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array, ad?: Uint8Array) => Uint8Array;
type Decrypt = (key: Uint8Array, nonce: Uint8Array, ciphertext: Uint8Array, ad?: Uint8Array) => Uint8Array;

const failed = "decryption failed: ciphertext is not authentic";

function checkKnownAnswer(vector: KnownAnswer, encrypt: Encrypt, decrypt: Decrypt): void {
  const [key, nonce, aad] = [fromHex(vector.key), fromHex(vector.nonce), fromHex(vector.aad)];
  const sealed = encrypt(key, nonce, fromHex(vector.plaintext), aad);
  assert.is(toHex(sealed), vector.ciphertext + vector.tag);
  assert.is(toHex(decrypt(key, nonce, sealed, aad)), vector.plaintext);
}

/** Valid cases must encrypt and decrypt exactly; invalid ones must fail to open. */
function runWycheproof(file: string, nonceLength: number, encrypt: Encrypt, decrypt: Decrypt): number {
  const data = readVectorJson<WycheproofAead>(file);
  let count = 0;
  for (const group of data.testGroups) {
    for (const test of group.tests) {
      count += 1;
      const [key, iv, aad] = [fromHex(test.key), fromHex(test.iv), fromHex(test.aad)];
      const sealed = fromHex(test.ct + test.tag);
      if (test.result === "valid") {
        assert.is(toHex(encrypt(key, iv, fromHex(test.msg), aad)), test.ct + test.tag, `tcId ${test.tcId}`);
        assert.is(toHex(decrypt(key, iv, sealed, aad)), test.msg, `tcId ${test.tcId}`);
      } else {
        // Wrong nonce sizes are rejected at the API; the rest fail authentication.
        const reason = iv.length === nonceLength ? failed : `nonce must be ${nonceLength} bytes, got ${iv.length}`;
        expectAppError(() => decrypt(key, iv, sealed, aad), "invalid_argument", reason);
      }
    }
  }
  assert.is(count, data.numberOfTests);
  return count;
}

// ---
const XChaCha = suite("xchacha20poly1305");
XChaCha.before(() => initCrypto());

XChaCha("should match draft-irtf-cfrg-xchacha-03 :: A.3.1", () => {
  const data = readVectorJson<{ aead: KnownAnswer[] }>("aead/xchacha20poly1305-draft-irtf-cfrg-xchacha-03.json");
  assert.is(data.aead.length, 1);
  for (const vector of data.aead) checkKnownAnswer(vector, xchacha20poly1305Encrypt, xchacha20poly1305Decrypt);
});

XChaCha("should pass Wycheproof :: xchacha20_poly1305_test.json (315 cases)", () => {
  const count = runWycheproof("aead/wycheproof/xchacha20_poly1305_test.json", 24, xchacha20poly1305Encrypt, xchacha20poly1305Decrypt);
  assert.is(count, 315);
});

XChaCha("should match the draft's building blocks :: HChaCha20 and XChaCha20 stream", () => {
  // Not part of our API: they check the libsodium build the AEAD rests on.
  const data = readVectorJson<{
    hchacha20: { key: string; nonce: string; subkey: string }[];
    xchacha20: { key: string; nonce: string; counter: number; plaintext: string; ciphertext: string }[];
  }>("aead/xchacha20poly1305-draft-irtf-cfrg-xchacha-03.json");
  for (const v of data.hchacha20) {
    assert.is(toHex(sodium.crypto_core_hchacha20(fromHex(v.nonce), fromHex(v.key), null)), v.subkey);
  }
  assert.is(data.xchacha20.length, 2);
  for (const v of data.xchacha20) {
    const out = sodium.crypto_stream_xchacha20_xor_ic(fromHex(v.plaintext), fromHex(v.nonce), v.counter, fromHex(v.key));
    assert.is(toHex(out), v.ciphertext);
  }
});

XChaCha("should reject bad lengths with a clear error :: key, nonce", () => {
  const [key, nonce, data] = [new Uint8Array(32), new Uint8Array(24), new Uint8Array(8)];
  expectAppError(() => xchacha20poly1305Encrypt(key.subarray(1), nonce, data), "invalid_argument", "key must be 32 bytes, got 31");
  expectAppError(() => xchacha20poly1305Encrypt(new Uint8Array(33), nonce, data), "invalid_argument", "key must be 32 bytes, got 33");
  expectAppError(() => xchacha20poly1305Encrypt(key, nonce.subarray(12), data), "invalid_argument", "nonce must be 24 bytes, got 12");
  expectAppError(() => xchacha20poly1305Decrypt(key.subarray(1), nonce, data), "invalid_argument", "key must be 32 bytes, got 31");
  expectAppError(() => xchacha20poly1305Decrypt(key, new Uint8Array(25), data), "invalid_argument", "nonce must be 24 bytes, got 25");
});

XChaCha("should fail without plaintext :: short input, wrong associated data", () => {
  const key = new Uint8Array(32).fill(7);
  const nonce = new Uint8Array(24).fill(9);
  const sealed = xchacha20poly1305Encrypt(key, nonce, new Uint8Array([1, 2, 3]), new Uint8Array([4]));
  expectAppError(() => xchacha20poly1305Decrypt(key, nonce, sealed.subarray(0, 15)), "invalid_argument", failed);
  expectAppError(() => xchacha20poly1305Decrypt(key, nonce, sealed), "invalid_argument", failed);
  expectAppError(() => xchacha20poly1305Decrypt(key, nonce, sealed, new Uint8Array([5])), "invalid_argument", failed);
  assert.equal(xchacha20poly1305Decrypt(key, nonce, sealed, new Uint8Array([4])), new Uint8Array([1, 2, 3]));
});

XChaCha.run();

// ---
const ChaCha = suite("chacha20poly1305");
ChaCha.before(() => initCrypto());

ChaCha("should match RFC 8439 :: 2.8.2 and A.5", () => {
  const data = readVectorJson<{ vectors: KnownAnswer[] }>("aead/chacha20poly1305-rfc8439.json");
  assert.is(data.vectors.length, 2);
  for (const vector of data.vectors) checkKnownAnswer(vector, chacha20poly1305Encrypt, chacha20poly1305Decrypt);
});

ChaCha("should pass Wycheproof :: chacha20_poly1305_test.json (325 cases)", () => {
  const count = runWycheproof("aead/wycheproof/chacha20_poly1305_test.json", 12, chacha20poly1305Encrypt, chacha20poly1305Decrypt);
  assert.is(count, 325);
});

ChaCha("should reject bad lengths with a clear error :: key, nonce", () => {
  const data = new Uint8Array(4);
  expectAppError(() => chacha20poly1305Encrypt(new Uint8Array(16), new Uint8Array(12), data), "invalid_argument", "key must be 32 bytes, got 16");
  expectAppError(() => chacha20poly1305Encrypt(new Uint8Array(32), new Uint8Array(24), data), "invalid_argument", "nonce must be 12 bytes, got 24");
});

ChaCha.run();

// ---
// The OpenSSL path the public functions take from `nativeFromBytes` on: the
// same vectors at every size (argument errors still come from the API), then
// large payloads against libsodium's own primitive in both directions.
const Native = suite("xchacha20poly1305 on OpenSSL (large payloads)");
// node:crypto's source: libsodium's own is slow under Node.
const random = (n: number): Uint8Array => new Uint8Array(randomBytes(n));
Native.before(() => initCrypto());

const nativeEncrypt: Encrypt = (key, nonce, plaintext, ad = new Uint8Array(0)) =>
  nonce.length !== 24 || key.length !== 32 ? xchacha20poly1305Encrypt(key, nonce, plaintext, ad) : nativeXChaChaEncrypt(key, nonce, plaintext, ad);
const nativeDecrypt: Decrypt = (key, nonce, sealed, ad = new Uint8Array(0)) => {
  if (nonce.length !== 24 || key.length !== 32 || sealed.length < 16) return xchacha20poly1305Decrypt(key, nonce, sealed, ad);
  const plain = nativeXChaChaDecrypt(key, nonce, sealed, ad);
  if (!plain) throw decryptionFailed();
  return plain;
};

Native("should match the draft's vector and pass Wycheproof's 315 cases", () => {
  for (const vector of readVectorJson<{ aead: KnownAnswer[] }>("aead/xchacha20poly1305-draft-irtf-cfrg-xchacha-03.json").aead) checkKnownAnswer(vector, nativeEncrypt, nativeDecrypt);
  assert.is(runWycheproof("aead/wycheproof/xchacha20_poly1305_test.json", 24, nativeEncrypt, nativeDecrypt), 315);
});

Native("should give libsodium's bytes for payloads around and far above the switch, both ways", () => {
  for (const size of [nativeFromBytes - 1, nativeFromBytes, nativeFromBytes + 1, 16 * 1024, 1024 * 1024 + 7]) {
    const key = random(32);
    const nonce = random(24);
    const ad = random(size % 50);
    const plain = random(size);
    const reference = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(plain, ad, null, nonce, key);
    assert.is(toHex(xchacha20poly1305Encrypt(key, nonce, plain, ad)), toHex(reference), `encrypt ${size}`);
    assert.is(toHex(xchacha20poly1305Decrypt(key, nonce, reference, ad)), toHex(plain), `decrypt ${size}`);
  }
});

Native("should refuse a large payload with one flipped bit, a wrong key or other associated data, with the one error", () => {
  const key = random(32);
  const nonce = random(24);
  const ad = new TextEncoder().encode("kms:snapshot");
  const sealed = xchacha20poly1305Encrypt(key, nonce, random(64 * 1024), ad);
  for (const at of [0, 30_000, sealed.length - 17, sealed.length - 1]) {
    const bad = sealed.slice();
    bad[at] = (bad[at] ?? 0) ^ 1;
    expectAppError(() => xchacha20poly1305Decrypt(key, nonce, bad, ad), "invalid_argument", failed);
  }
  expectAppError(() => xchacha20poly1305Decrypt(random(32), nonce, sealed, ad), "invalid_argument", failed);
  expectAppError(() => xchacha20poly1305Decrypt(key, nonce, sealed, new TextEncoder().encode("kms:snapshoT")), "invalid_argument", failed);
  expectAppError(() => xchacha20poly1305Decrypt(key, nonce, sealed.subarray(0, sealed.length - 1), ad), "invalid_argument", failed);
});

Native.run();
