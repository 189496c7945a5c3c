import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import * as api from "./index.js";

// ---
const Api = suite("API");

Api("should export named functions only :: no default export", () => {
  assert.not.ok("default" in api);
  for (const name of ["initCrypto", "seal", "open", "deriveKey", "signMinisign", "verifyMinisign", "ed25519Sign"]) {
    assert.type((api as Record<string, unknown>)[name], "function", name);
  }
});

Api.run();

// ---
const Init = suite("initCrypto");

Init("should refuse every libsodium-backed call before initCrypto :: fresh process", () => {
  // A fresh process: in this one another test file may already have initialised.
  const index = new URL("./index.ts", import.meta.url).href;
  const script = `
    const c = await import(${JSON.stringify(index)});
    const key = new Uint8Array(32);
    const calls = {
      seal: () => c.seal(key, new Uint8Array(1)),
      open: () => c.open(key, new Uint8Array(41)),
      xchacha: () => c.xchacha20poly1305Encrypt(key, new Uint8Array(24), new Uint8Array(1)),
      ed25519: () => c.ed25519KeyPairFromSeed(key),
      blake2b: () => c.blake2b(new Uint8Array(1), 32),
      deriveKey: () => c.deriveKey("pw", new Uint8Array(16), { memoryKiB: 8, iterations: 1, keyLength: 32 }),
      compare: () => c.constantTimeEqual(key, key),
      minisign: () => c.createMinisignKeyPair(),
    };
    const out = {};
    for (const [name, call] of Object.entries(calls)) {
      try { call(); out[name] = "no error"; } catch (e) { out[name] = e.reason + ": " + e.message; }
    }
    out.ready = c.isCryptoReady();
    out.sha256 = Buffer.from(c.sha256(new Uint8Array(0))).toString("hex").slice(0, 8);
    await c.initCrypto();
    out.readyAfter = c.isCryptoReady();
    out.sealAfter = c.seal(key, new Uint8Array(1)).length;
    console.log(JSON.stringify(out));
  `;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    encoding: "utf8",
  });
  assert.is(child.status, 0, child.stderr);
  const out = JSON.parse(child.stdout) as Record<string, unknown>;
  const expected = "failed_precondition: crypto core not initialised: await initCrypto() first";
  for (const name of ["seal", "open", "xchacha", "ed25519", "blake2b", "deriveKey", "compare", "minisign"]) {
    assert.is(out[name], expected, name);
  }
  assert.is(out["ready"], false);
  // SHA-2 and randomness come from node:crypto and need no initialisation.
  assert.is(out["sha256"], "e3b0c442");
  assert.is(out["readyAfter"], true);
  assert.is(out["sealAfter"], 42);
});

Init("should load once :: repeated calls share one promise", async () => {
  const first = api.initCrypto();
  assert.is(api.initCrypto(), first);
  await first;
  assert.ok(api.isCryptoReady());
});

Init.run();
