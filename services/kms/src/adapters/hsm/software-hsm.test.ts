import { deriveKey, initCrypto } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { HsmMismatchError } from "./hsm.js";
import { createSoftwareHsm, hsmKeyFromPassphrase, newHsmKey, parseHsmKey } from "./software-hsm.js";

const soft = suite("software HSM");

soft("should parse and print hsm:aes256 keys", () => {
  const key = newHsmKey();
  assert.match(key, /^hsm:aes256:[A-Za-z0-9+/]{43}=$/);
  assert.is(parseHsmKey(key)?.length, 32);
  for (const bad of ["", "hsm:aes256:", "hsm:aes128:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "hsm:aes256:AAAA"]) assert.is(parseHsmKey(bad), undefined, bad);
});

soft("should wrap the root key and refuse another HSM key", async () => {
  await initCrypto();
  const a = createSoftwareHsm(new Uint8Array(32).fill(1));
  const b = createSoftwareHsm(new Uint8Array(32).fill(2));
  const root = new Uint8Array(32).fill(9);
  const wrapped = await a.wrap(root);
  assert.equal(await a.unwrap(wrapped), root);
  await b.unwrap(wrapped).then(() => assert.unreachable(), (e: unknown) => assert.instance(e, HsmMismatchError));
  assert.is.not(Buffer.from(await a.rootSeed()).toString("hex"), Buffer.from(await b.rootSeed()).toString("hex"));
  assert.is(Buffer.from(await a.checkValue()).includes(Buffer.alloc(32, 1)), false);
});

soft("should derive the passphrase key with the contract's Argon2id parameters", async () => {
  await initCrypto();
  const salt = new Uint8Array(16).fill(3);
  const k = hsmKeyFromPassphrase("correct horse", salt);
  assert.equal(k, deriveKey("correct horse", salt, { memoryKiB: 65536, iterations: 3, keyLength: 32 }));
  assert.is.not(Buffer.from(k).toString("hex"), Buffer.from(hsmKeyFromPassphrase("other", salt)).toString("hex"));
});

soft.run();
