import { suite } from "uvu";
import * as assert from "uvu/assert";
import { aes256gcmDecrypt, aes256gcmEncrypt, pbkdf2Sha256 } from "./index.js";
import { fromHex, toHex } from "../testing/test-helpers.js";

const Gcm = suite("aes256gcm");

Gcm("should reproduce the GCM specification's test case 14 (256-bit zero key, zero block)", () => {
  // McGrew & Viega, "The Galois/Counter Mode of Operation", test case 14.
  const out = aes256gcmEncrypt(new Uint8Array(32), new Uint8Array(12), new Uint8Array(16));
  assert.is(toHex(out), "cea7403d4d606b6e074ec5d3baf39d18" + "d0d1c8a799996bf0265b98b5d48ab919");
  assert.is(toHex(aes256gcmDecrypt(new Uint8Array(32), new Uint8Array(12), out)), "00".repeat(16));
});

Gcm("should refuse a flipped bit, other associated data and a short input with one message", () => {
  const key = new Uint8Array(32).fill(9);
  const nonce = new Uint8Array(12).fill(1);
  const sealed = aes256gcmEncrypt(key, nonce, new TextEncoder().encode("payload"), fromHex("aa"));
  const flipped = sealed.slice();
  flipped[0] = (flipped[0] ?? 0) ^ 1;
  assert.throws(() => aes256gcmDecrypt(key, nonce, flipped, fromHex("aa")), /decryption failed/);
  assert.throws(() => aes256gcmDecrypt(key, nonce, sealed, fromHex("ab")), /decryption failed/);
  assert.throws(() => aes256gcmDecrypt(key, nonce, sealed.subarray(0, 10)), /decryption failed/);
});

Gcm("should derive PBKDF2-HMAC-SHA256 as RFC 7914 section 11 lists it", () => {
  // RFC 7914 §11: PBKDF2-HMAC-SHA256 (P="passwd", S="salt", c=1, dkLen=64).
  assert.is(
    toHex(pbkdf2Sha256("passwd", new TextEncoder().encode("salt"), 1, 64)),
    "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783",
  );
});

Gcm.run();
