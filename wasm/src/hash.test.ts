import { createHash } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { blake2b, generateKey, initCrypto, sha256, sha512 } from "./index.js";
import { expectAppError, fromHex, readVectorJson, toHex, utf8 } from "../testing/test-helpers.js";

const range = (length: number, modulo = 256): Uint8Array => Uint8Array.from({ length }, (_, i) => i % modulo);

// ---
const Blake = suite("blake2b");
Blake.before(() => initCrypto());

Blake("should match known answers :: RFC 7693 'abc' and the BLAKE2 keyed KAT", () => {
  // RFC 7693 Appendix A: BLAKE2b-512("abc").
  assert.is(
    toHex(blake2b(utf8("abc"), 64)),
    "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923",
  );
  // blake2b-kat.txt (BLAKE2 reference repo), first keyed entry: key 00..3f, empty input.
  assert.is(
    toHex(blake2b(new Uint8Array(0), 64, range(64))),
    "10ebb67700b1868efb4417987acf4690ae9d972fb7a590c2f02871799aaa4786b5e996e8f0f4eb981fc214b005f42d2ff4233499391653df7aefcbc13fc51568",
  );
});

Blake("should match an independent implementation :: other lengths, keyed, chunked input", () => {
  // Expected values computed with Python's hashlib.blake2b (digest_size=…, key=…).
  assert.is(toHex(blake2b(utf8("abc"), 32)), "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319");
  assert.is(toHex(blake2b(range(256), 16, range(16))), "292c407ce948087d32bcfda382db7742");
  // 200,000 bytes: fed to libsodium in 64 KiB slices.
  assert.is(toHex(blake2b(range(200_000, 251), 32, range(32))), "65b2bd4d6e0cdc4d9d58bdde62381b11a0f01baa4288305a0ec5f3cf0837369e");
  for (const size of [0, 1, 65_535, 65_536, 65_537, 300_000]) {
    const data = range(size, 253);
    assert.is(toHex(blake2b(data, 64)), createHash("blake2b512").update(data).digest("hex"), `size ${size}`);
  }
});

Blake("should equal the minisign vectors' BLAKE2b-512 :: prehash values", () => {
  const data = readVectorJson<{ vectors: { messageHex: string; blake2b512OfMessageHex?: string }[] }>("minisign/examples.json");
  const prehashed = data.vectors.filter((v) => v.blake2b512OfMessageHex !== undefined);
  assert.ok(prehashed.length > 0);
  for (const v of prehashed) assert.is(toHex(blake2b(fromHex(v.messageHex), 64)), v.blake2b512OfMessageHex);
});

Blake("should reject out-of-range lengths :: output and key", () => {
  const message = utf8("m");
  expectAppError(() => blake2b(message, 15), "invalid_argument", "BLAKE2b output length must be an integer from 16 to 64 bytes, got 15");
  expectAppError(() => blake2b(message, 65), "invalid_argument", /from 16 to 64 bytes, got 65/);
  expectAppError(() => blake2b(message, 32.5), "invalid_argument", /got 32.5/);
  expectAppError(() => blake2b(message, 32, new Uint8Array(15)), "invalid_argument", "BLAKE2b key must be 16 to 64 bytes, got 15");
  expectAppError(() => blake2b(message, 32, new Uint8Array(65)), "invalid_argument", "BLAKE2b key must be 16 to 64 bytes, got 65");
  assert.is(blake2b(message, 32, generateKey()).length, 32);
});

Blake.run();

// ---
const Sha = suite("sha256/sha512");

Sha("should match FIPS 180 examples :: 'abc'", () => {
  assert.is(toHex(sha256(utf8("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.is(
    toHex(sha512(utf8("abc"))),
    "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
  );
  assert.is(sha256(new Uint8Array(0)).constructor, Uint8Array);
});

Sha.run();
