import { randomBytes, randomInt } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { argon2Browser } from "./argon2-browser-oracle.js";
import { argon2idLanes, deriveKey, initCrypto } from "./index.js";
import { fromHex, readVectorJson, toHex } from "../testing/test-helpers.js";

const Lanes = suite("argon2idLanes");
Lanes.before(() => initCrypto());

Lanes("should reproduce the RFC 9106 5.3 vector (4 lanes, secret, associated data)", () => {
  const v = readVectorJson<{
    rfc9106: { t: number; m: number; p: number; hashLength: number; passwordHex: string; saltHex: string; secretHex: string; associatedDataHex: string; tagHex: string };
  }>("argon2/argon2-vectors.json").rfc9106;
  const tag = argon2idLanes(fromHex(v.passwordHex), fromHex(v.saltHex), {
    iterations: v.t, memoryKiB: v.m, parallelism: v.p, keyLength: v.hashLength, secret: fromHex(v.secretHex), associatedData: fromHex(v.associatedDataHex),
  });
  assert.is(toHex(tag), v.tagHex);
});

Lanes("should reproduce the P-H-C reference Argon2id vectors", () => {
  const v = readVectorJson<{ phcReferenceTests: { argon2id: { t: number; m: number; p: number; password: string; salt: string; hashHex: string }[] } }>("argon2/argon2-vectors.json");
  const small = v.phcReferenceTests.argon2id.filter((c) => c.m <= 65536);
  assert.ok(small.length >= 4);
  for (const c of small) {
    const tag = argon2idLanes(c.password, new TextEncoder().encode(c.salt), { iterations: c.t, memoryKiB: c.m, parallelism: c.p, keyLength: 32 });
    assert.is(toHex(tag), c.hashHex, `t=${c.t} m=${c.m} p=${c.p}`);
  }
});

Lanes("should equal libsodium's crypto_pwhash with one lane and a 16-byte salt", () => {
  for (const [m, t] of [[8, 1], [64, 3], [4096, 2]] as const) {
    const salt = new Uint8Array(randomBytes(16));
    const password = new Uint8Array(randomBytes(randomInt(0, 40)));
    assert.is(toHex(argon2idLanes(password, salt, { iterations: t, memoryKiB: m, parallelism: 1, keyLength: 32 })), toHex(deriveKey(password, salt, { iterations: t, memoryKiB: m, keyLength: 32 })));
  }
});

Lanes("should equal argon2-browser with MinIO's admin parameters (t=1, 64 MiB, 4 lanes, 32-byte salt)", () => {
  const jobs = Array.from({ length: 2 }, () => ({ password: randomBytes(randomInt(1, 41)), salt: randomBytes(32) }));
  const expected = argon2Browser(jobs.map((j) => ({ passHex: j.password.toString("hex"), saltHex: j.salt.toString("hex"), time: 1, mem: 65536, hashLen: 32, parallelism: 4 })));
  jobs.forEach((j, i) => {
    const ours = argon2idLanes(new Uint8Array(j.password), new Uint8Array(j.salt), { iterations: 1, memoryKiB: 65536, parallelism: 4, keyLength: 32 });
    assert.is(toHex(ours), expected[i]);
  });
});

Lanes("should refuse parameters out of range", () => {
  const salt = new Uint8Array(16);
  assert.throws(() => argon2idLanes("x", salt, { iterations: 1, memoryKiB: 16, parallelism: 4, keyLength: 32 }), /memory/);
  assert.throws(() => argon2idLanes("x", new Uint8Array(4), { iterations: 1, memoryKiB: 64, parallelism: 1, keyLength: 32 }), /salt/);
  assert.throws(() => argon2idLanes("x", salt, { iterations: 0, memoryKiB: 64, parallelism: 1, keyLength: 32 }), /iterations/);
});

Lanes.run();
