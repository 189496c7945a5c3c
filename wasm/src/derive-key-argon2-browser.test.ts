import { randomBytes, randomInt } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { argon2Browser } from "./argon2-browser-oracle.js";
import { deriveKey, initCrypto, type Argon2idParams } from "./index.js";
import { readVectorJson, toHex } from "../testing/test-helpers.js";

// ---
const Oracle = suite("deriveKey :: argon2-browser cross-check");
Oracle.before(() => initCrypto());

Oracle("should be a trustworthy oracle :: argon2-browser reproduces the RFC 9106 5.3 vector", () => {
  // libsodium's API has no secret, no associated data and one lane, so this
  // vector cannot go through deriveKey; it proves the oracle instead.
  const v = readVectorJson<{
    rfc9106: { t: number; m: number; p: number; hashLength: number; passwordHex: string; saltHex: string; secretHex: string; associatedDataHex: string; tagHex: string };
  }>("argon2/argon2-vectors.json").rfc9106;
  const [hash] = argon2Browser([
    { passHex: v.passwordHex, saltHex: v.saltHex, time: v.t, mem: v.m, hashLen: v.hashLength, parallelism: v.p, secretHex: v.secretHex, adHex: v.associatedDataHex },
  ]);
  assert.is(hash, v.tagHex);
});

const parameterSets: readonly Argon2idParams[] = [
  { memoryKiB: 1024, iterations: 3, keyLength: 32 },
  { memoryKiB: 8192, iterations: 2, keyLength: 64 },
];

for (const params of parameterSets) {
  Oracle(`should equal argon2-browser :: 20 random password/salt pairs, m=${params.memoryKiB} KiB t=${params.iterations} len=${params.keyLength}`, () => {
    const pairs = Array.from({ length: 20 }, () => ({ password: randomBytes(randomInt(0, 65)), salt: randomBytes(16) }));
    const expected = argon2Browser(
      pairs.map((pair) => ({
        passHex: pair.password.toString("hex"),
        saltHex: pair.salt.toString("hex"),
        time: params.iterations,
        mem: params.memoryKiB,
        hashLen: params.keyLength,
      })),
    );
    pairs.forEach((pair, i) => {
      const ours = deriveKey(new Uint8Array(pair.password), new Uint8Array(pair.salt), params);
      assert.is(toHex(ours), expected[i], `pair ${i}: password ${pair.password.toString("hex")}`);
    });
  });
}

Oracle.run();
