import { suite } from "uvu";
import * as assert from "uvu/assert";
import { deriveKey, initCrypto, verifyArgon2idString } from "./index.js";
import { expectAppError, readVectorJson, toHex, utf8 } from "../testing/test-helpers.js";

interface PhcVector {
  readonly password: string;
  readonly salt: string;
  readonly t: number;
  readonly m: number;
  readonly p: number;
  readonly hashHex: string;
  readonly encoded: string;
}

const small = { memoryKiB: 64, iterations: 2, keyLength: 32 };

// ---
const Vectors = suite("deriveKey :: Argon2id vectors");
Vectors.before(() => initCrypto());

Vectors("should verify every P-H-C reference Argon2id vector :: 8 vectors, right and wrong password", () => {
  const data = readVectorJson<{ phcReferenceTests: { argon2id: PhcVector[] } }>("argon2/argon2-vectors.json");
  const vectors = data.phcReferenceTests.argon2id;
  assert.is(vectors.length, 8);
  for (const v of vectors) {
    const label = `t=${v.t} m=${v.m} p=${v.p} ${v.password}/${v.salt}`;
    // The encoded string must carry the raw tag the vector states.
    assert.is(Buffer.from(v.encoded.split("$")[5] ?? "", "base64").toString("hex"), v.hashHex, label);
    assert.ok(verifyArgon2idString(v.encoded, v.password), label);
    // The negative and byte-password checks only on the cheap (256 KiB) vectors.
    if (v.m <= 256) {
      assert.ok(verifyArgon2idString(v.encoded, utf8(v.password)), label);
      assert.not.ok(verifyArgon2idString(v.encoded, `${v.password}!`), label);
    }
  }
});

Vectors("should refuse non-Argon2id strings :: argon2i prefix, garbage", () => {
  expectAppError(() => verifyArgon2idString("$argon2i$v=19$m=256,t=2,p=1$c29tZXNhbHQ$AAAA", "p"), "invalid_argument", /\$argon2id\$/);
  assert.not.ok(verifyArgon2idString("$argon2id$garbage", "password"));
});

Vectors.run();

// ---
const Derive = suite("deriveKey :: parameters");
Derive.before(() => initCrypto());

Derive("should be deterministic and depend on every input :: password, salt, memory, iterations, length", () => {
  const salt = new Uint8Array(16).fill(2);
  const base = toHex(deriveKey("password", salt, small));
  assert.is(toHex(deriveKey(utf8("password"), salt, small)), base);
  assert.is(deriveKey("password", salt, small).length, 32);
  const variants = [
    deriveKey("passwore", salt, small),
    deriveKey("password", new Uint8Array(16).fill(3), small),
    deriveKey("password", salt, { ...small, memoryKiB: 128 }),
    deriveKey("password", salt, { ...small, iterations: 3 }),
  ];
  for (const variant of variants) assert.is.not(toHex(variant), base);
  const longer = deriveKey("password", salt, { ...small, keyLength: 64 });
  assert.is(longer.length, 64);
});

Derive("should leave the caller's password bytes untouched :: only its own UTF-8 copy is wiped", () => {
  const password = utf8("secret");
  deriveKey(password, new Uint8Array(16), small);
  assert.equal(password, utf8("secret"));
});

Derive("should reject bad parameters with a clear error :: salt, memory, iterations, key length", () => {
  const salt = new Uint8Array(16);
  expectAppError(() => deriveKey("pw", new Uint8Array(8), small), "invalid_argument", "salt must be 16 bytes, got 8");
  expectAppError(() => deriveKey("pw", salt, { ...small, memoryKiB: 7 }), "invalid_argument", "Argon2id memory must be an integer from 8 to 1048576 KiB, got 7");
  expectAppError(() => deriveKey("pw", salt, { ...small, memoryKiB: 2 * 1024 * 1024 }), "invalid_argument", /got 2097152/);
  expectAppError(() => deriveKey("pw", salt, { ...small, iterations: 0 }), "invalid_argument", /Argon2id iterations must be an integer from 1/);
  expectAppError(() => deriveKey("pw", salt, { ...small, keyLength: 15 }), "invalid_argument", "Argon2id key length must be an integer from 16 to 1024 bytes, got 15");
  expectAppError(() => deriveKey("pw", salt, { ...small, keyLength: Number.NaN }), "invalid_argument", /got NaN/);
});

Derive.run();
