import { suite } from "uvu";
import * as assert from "uvu/assert";
import {
  envelopeFormatV1,
  envelopeOverhead,
  generateKey,
  generateNonce,
  initCrypto,
  open,
  seal,
  xchacha20poly1305Decrypt,
} from "./index.js";
import { expectAppError, toHex, utf8 } from "../testing/test-helpers.js";

const failed = "decryption failed: ciphertext is not authentic";

// ---
const Seal = suite("seal");
Seal.before(() => initCrypto());

Seal("should round-trip :: empty, small and 64 KiB payloads, with and without associated data", () => {
  const key = generateKey();
  for (const size of [0, 1, 32, 1024, 65536]) {
    const plaintext = generateKey(64).subarray(0, Math.min(size, 64));
    const data = new Uint8Array(size).map((_, i) => plaintext[i % 64] ?? i);
    assert.equal(open(key, seal(key, data)), data, `size ${size}`);
    const ad = utf8(`context-${size}`);
    assert.equal(open(key, seal(key, data, ad), ad), data, `size ${size} with AD`);
  }
});

Seal("should write the documented layout :: format byte, nonce, ciphertext ‖ tag", () => {
  const key = generateKey();
  const plaintext = utf8("data key: 32 bytes of secret....");
  const envelope = seal(key, plaintext, utf8("ad"));
  assert.is(envelope.length, plaintext.length + envelopeOverhead);
  assert.is(envelopeOverhead, 41);
  assert.is(envelope[0], envelopeFormatV1);
  // The layout is plain XChaCha20-Poly1305: any implementation can open it.
  const raw = xchacha20poly1305Decrypt(key, envelope.subarray(1, 25), envelope.subarray(25), utf8("ad"));
  assert.equal(raw, plaintext);
});

Seal("should use a fresh nonce every time :: 10,000 seals", () => {
  const key = generateKey();
  const seen = new Set<string>();
  for (let i = 0; i < 10_000; i += 1) seen.add(toHex(seal(key, new Uint8Array(0)).subarray(1, 25)));
  assert.is(seen.size, 10_000);
  assert.is.not(toHex(generateNonce()), toHex(generateNonce()));
  assert.is(generateNonce().length, 24);
});

Seal("should reject a key of the wrong length :: clear message", () => {
  expectAppError(() => seal(new Uint8Array(31), new Uint8Array(1)), "invalid_argument", "key must be 32 bytes, got 31");
  expectAppError(() => open(new Uint8Array(64), new Uint8Array(41)), "invalid_argument", "key must be 32 bytes, got 64");
  expectAppError(() => seal(new Uint8Array(0), new Uint8Array(1)), "invalid_argument", "key must be 32 bytes, got 0");
});

Seal.run();

// ---
const Tamper = suite("open :: tampering");
Tamper.before(() => initCrypto());

Tamper("should fail on every flipped byte :: format byte, nonce, ciphertext and tag", () => {
  const key = generateKey();
  const ad = utf8("enclave/key-name");
  const envelope = seal(key, utf8("the quick brown fox jumps over the lazy dog"), ad);
  for (let i = 0; i < envelope.length; i += 1) {
    for (const mask of [0x01, 0x80, 0xff]) {
      const tampered = envelope.slice();
      tampered[i] = (tampered[i] ?? 0) ^ mask;
      expectAppError(() => open(key, tampered, ad), "invalid_argument", failed);
    }
  }
});

Tamper("should fail on every flipped byte :: associated data", () => {
  const key = generateKey();
  const ad = utf8("0123456789abcdef");
  const envelope = seal(key, utf8("payload"), ad);
  for (let i = 0; i < ad.length; i += 1) {
    const tampered = ad.slice();
    tampered[i] = (tampered[i] ?? 0) ^ 0x01;
    expectAppError(() => open(key, envelope, tampered), "invalid_argument", failed);
  }
  expectAppError(() => open(key, envelope), "invalid_argument", failed);
  expectAppError(() => open(key, envelope, ad.subarray(1)), "invalid_argument", failed);
  expectAppError(() => open(key, envelope, new Uint8Array([...ad, 0])), "invalid_argument", failed);
});

Tamper("should fail without plaintext :: wrong key, truncation, extension, unknown format", () => {
  const key = generateKey();
  const envelope = seal(key, utf8("payload"));
  expectAppError(() => open(generateKey(), envelope), "invalid_argument", failed);
  for (const length of [0, 1, 25, 40, envelope.length - 1]) {
    expectAppError(() => open(key, envelope.subarray(0, length)), "invalid_argument", failed);
  }
  expectAppError(() => open(key, new Uint8Array([...envelope, 0])), "invalid_argument", failed);
  const other = envelope.slice();
  other[0] = 0x02;
  expectAppError(() => open(key, other), "invalid_argument", failed);
  // An empty plaintext still carries a tag that protects it.
  const empty = seal(key, new Uint8Array(0));
  assert.is(empty.length, 41);
  expectAppError(() => open(key, empty.subarray(0, 40)), "invalid_argument", failed);
});

Tamper.run();
