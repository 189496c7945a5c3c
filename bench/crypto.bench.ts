// Crypto core against its peers, one line per comparison with both rates and
// the ratio ours/peer: seal+open (libsodium XChaCha20-Poly1305 envelope, fresh
// nonce per call) against node:crypto AES-256-GCM and ChaCha20-Poly1305 (new
// cipher objects per call, as node requires); Ed25519 sign and verify against
// node:crypto; Argon2id at 64 MiB against argon2-browser. Bounded: about 1 s
// per rate (BENCH_MS), a few Argon2id runs; ~20-30 s in all.
import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  randomBytes,
  sign as nodeSign,
  verify as nodeVerify,
} from "node:crypto";
import { createRequire } from "node:module";
import { deriveKey, ed25519KeyPairFromSeed, ed25519Sign, ed25519Verify, generateKey, initCrypto, open, seal } from "@mc/wasm";

const durationMs = Number(process.env.BENCH_MS ?? 1000);

/** Calls per second of a synchronous `fn`, after a short warm-up. */
function rate(fn: () => void): number {
  const warmUntil = performance.now() + Math.min(200, durationMs / 5);
  while (performance.now() < warmUntil) fn();
  let calls = 0;
  const started = performance.now();
  const end = started + durationMs;
  let now = started;
  while (now < end) {
    for (let i = 0; i < 8; i += 1) fn();
    calls += 8;
    now = performance.now();
  }
  return calls / ((now - started) / 1000);
}

function line(label: string, oursName: string, ours: number, peerName: string, peer: number, digits = 0): void {
  const fmt = (value: number): string => (digits === 0 ? String(Math.round(value)) : value.toFixed(digits));
  console.log(`${label}: ${oursName} ${fmt(ours)}/s, ${peerName} ${fmt(peer)}/s, ratio ${(ours / peer).toFixed(2)}x`);
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(a, b) === 0;
}

/** One node:crypto AEAD round trip: new cipher and decipher objects, 12-byte nonce. */
function nodeSealOpen(algorithm: "aes-256-gcm" | "chacha20-poly1305", key: Buffer, plaintext: Uint8Array): Buffer {
  const nonce = randomBytes(12);
  const options = { authTagLength: 16 };
  // Two literal calls: node's typings pick the cipher type per algorithm name.
  const cipher = algorithm === "aes-256-gcm" ? createCipheriv(algorithm, key, nonce, options) : createCipheriv(algorithm, key, nonce, options);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const tag = cipher.getAuthTag();
  const decipher =
    algorithm === "aes-256-gcm" ? createDecipheriv(algorithm, key, nonce, options) : createDecipheriv(algorithm, key, nonce, options);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
}

await initCrypto();

// --- AEAD
const key = generateKey();
const nodeKey = Buffer.from(key);
for (const [size, label] of [[32, "32B"], [1024, "1KiB"], [65536, "64KiB"]] as const) {
  const plaintext = randomBytes(size);
  if (!equal(open(key, seal(key, plaintext)), plaintext)) throw new Error("seal/open round trip failed");
  if (!equal(nodeSealOpen("aes-256-gcm", nodeKey, plaintext), plaintext)) throw new Error("aes-256-gcm round trip failed");
  if (!equal(nodeSealOpen("chacha20-poly1305", nodeKey, plaintext), plaintext)) throw new Error("chacha20-poly1305 round trip failed");
  const ours = rate(() => open(key, seal(key, plaintext)));
  const aes = rate(() => nodeSealOpen("aes-256-gcm", nodeKey, plaintext));
  const chacha = rate(() => nodeSealOpen("chacha20-poly1305", nodeKey, plaintext));
  line(`seal+open ${label}`, "libsodium", ours, "aes-256-gcm", aes);
  line(`seal+open ${label}`, "libsodium", ours, "chacha20-poly1305", chacha);
}

// --- Ed25519 (64-byte message: the size minisign signs, a BLAKE2b-512 digest)
const seed = generateKey();
const pair = ed25519KeyPairFromSeed(seed);
const message = randomBytes(64);
const nodePrivate = createPrivateKey({ key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]), format: "der", type: "pkcs8" });
const nodePublic = createPublicKey({ key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), pair.publicKey]), format: "der", type: "spki" });
const signature = ed25519Sign(pair.secretKey, message);
if (!nodeVerify(null, message, nodePublic, signature) || !ed25519Verify(pair.publicKey, message, nodeSign(null, message, nodePrivate))) {
  throw new Error("Ed25519 interop check failed");
}
line("ed25519 sign", "libsodium", rate(() => ed25519Sign(pair.secretKey, message)), "node:crypto", rate(() => nodeSign(null, message, nodePrivate)));
line(
  "ed25519 verify",
  "libsodium",
  rate(() => ed25519Verify(pair.publicKey, message, signature)),
  "node:crypto",
  rate(() => nodeVerify(null, message, nodePublic, signature)),
);

// --- Argon2id, m = 64 MiB, t = 3, p = 1, 32-byte output
interface Argon2Browser {
  readonly ArgonType: { readonly Argon2id: number };
  hash(params: { pass: Uint8Array; salt: Uint8Array; time: number; mem: number; hashLen: number; parallelism: number; type: number }): Promise<{ hash: Uint8Array }>;
}
// A dev dependency, loaded only by this script (its own process): it installs
// process-wide error handlers, and needs Node's fetch hidden on first use.
const argon2 = createRequire(import.meta.url)("argon2-browser") as Argon2Browser;
const params = { memoryKiB: 64 * 1024, iterations: 3, keyLength: 32 };
const password = randomBytes(16);
const salt = randomBytes(16);
const runs = 3;

async function timeRuns(fn: () => Promise<Uint8Array> | Uint8Array): Promise<{ perSecond: number; output: Uint8Array }> {
  let output = await fn(); // warm-up: wasm heap growth and compilation not counted
  const started = performance.now();
  for (let i = 0; i < runs; i += 1) output = await fn();
  return { perSecond: runs / ((performance.now() - started) / 1000), output };
}

const ours = await timeRuns(() => deriveKey(password, salt, params));
const savedFetch = globalThis.fetch;
const peer = await timeRuns(async () => {
  (globalThis as { fetch: unknown }).fetch = undefined;
  try {
    const result = await argon2.hash({ pass: password, salt, time: params.iterations, mem: params.memoryKiB, hashLen: params.keyLength, parallelism: 1, type: argon2.ArgonType.Argon2id });
    return result.hash;
  } finally {
    globalThis.fetch = savedFetch;
  }
});
if (!equal(ours.output, peer.output)) throw new Error("Argon2id outputs differ");
line("argon2id 64MiB t=3", "libsodium", ours.perSecond, "argon2-browser", peer.perSecond, 2);
