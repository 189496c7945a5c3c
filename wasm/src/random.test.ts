import { test } from "uvu";
import * as assert from "uvu/assert";
import { secretRandom } from "./random.js";
import { expectAppError, toHex } from "../testing/test-helpers.js";

test("secretRandom: every call gives new bytes, across pool refills and for lengths past the pool's limit", () => {
  const seen = new Set<string>();
  // 4 KiB of pool is 128 keys of 32 bytes: 1,000 calls refill it several times.
  for (let i = 0; i < 1000; i++) {
    const key = secretRandom(32);
    assert.is(key.length, 32);
    seen.add(toHex(key));
  }
  assert.is(seen.size, 1000, "a key was handed out twice");
  for (const n of [0, 1, 24, 255, 256, 257, 4096, 10_000]) assert.is(secretRandom(n).length, n);
  const big = [secretRandom(10_000), secretRandom(10_000)];
  assert.is.not(toHex(big[0] ?? new Uint8Array()), toHex(big[1] ?? new Uint8Array()));
});

test("secretRandom: the bytes look random (no zero runs from a wiped pool handed out again)", () => {
  const bytes = new Uint8Array(64 * 1024);
  for (let at = 0; at < bytes.length; at += 32) bytes.set(secretRandom(32), at);
  const zeros = bytes.filter((b) => b === 0).length;
  // 65,536 uniform bytes hold about 256 zeros; a pool slice handed out twice (wiped) would add thousands.
  assert.ok(zeros < 400, `${zeros} zero bytes`);
  const counts = new Array<number>(256).fill(0);
  for (const b of bytes) counts[b] = (counts[b] ?? 0) + 1;
  assert.ok(Math.min(...counts) > 150 && Math.max(...counts) < 370, `byte counts ${Math.min(...counts)}..${Math.max(...counts)}`);
});

test("secretRandom: refuses a negative or fractional length", () => {
  expectAppError(() => secretRandom(-1), "invalid_argument", /random length/);
  expectAppError(() => secretRandom(1.5), "invalid_argument", /random length/);
});

test.run();
