import { suite } from "uvu";
import * as assert from "uvu/assert";
import { constantTimeEqual, generateKey, initCrypto, zeroize } from "./index.js";
import { expectAppError } from "../testing/test-helpers.js";

// ---
const Equal = suite("constantTimeEqual");
Equal.before(() => initCrypto());

Equal("should compare contents :: equal, one bit off, different lengths, empty", () => {
  const a = generateKey();
  assert.ok(constantTimeEqual(a, a.slice()));
  for (let i = 0; i < a.length; i += 1) {
    const b = a.slice();
    b[i] = (b[i] ?? 0) ^ 1;
    assert.not.ok(constantTimeEqual(a, b), `byte ${i}`);
  }
  assert.not.ok(constantTimeEqual(a, a.subarray(1)));
  assert.ok(constantTimeEqual(new Uint8Array(0), new Uint8Array(0)));
});

Equal("should reject non-byte input :: typed error", () => {
  expectAppError(() => constantTimeEqual("ab" as unknown as Uint8Array, new Uint8Array(2)), "invalid_argument", "first operand must be a Uint8Array");
});

Equal.run();

// ---
const Zero = suite("zeroize");
Zero.before(() => initCrypto());

Zero("should wipe in place :: whole buffer and a view", () => {
  const key = generateKey(64);
  zeroize(key.subarray(0, 32));
  assert.equal(key.subarray(0, 32), new Uint8Array(32));
  assert.not.equal(key.subarray(32), new Uint8Array(32));
  zeroize(key);
  assert.equal(key, new Uint8Array(64));
});

Zero.run();
