import { spawnSync } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import { createRequire } from "node:module";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { deriveKey, initCrypto, type Argon2idParams } from "./index.js";
import { readVectorJson, toHex } from "../testing/test-helpers.js";

/**
 * argon2-browser is the independent Argon2id implementation we check ours
 * against. It is loaded only here, and only in a child process: loading it
 * installs process-wide unhandledRejection/uncaughtException handlers that
 * would turn any later failure in the test run into a wasm abort, and under
 * Node 20 it needs `globalThis.fetch` hidden around its first call.
 */
interface OracleJob {
  readonly passHex: string;
  readonly saltHex: string;
  readonly time: number;
  readonly mem: number;
  readonly hashLen: number;
  readonly parallelism?: number;
  readonly secretHex?: string;
  readonly adHex?: string;
}

const oracleScript = `
  import { createRequire } from "node:module";
  const argon2 = createRequire(import.meta.url)(process.env.ARGON2_BROWSER);
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  const hex = (h) => (h === undefined ? undefined : Uint8Array.from(Buffer.from(h, "hex")));
  const out = [];
  for (const job of JSON.parse(input)) {
    const savedFetch = globalThis.fetch;
    globalThis.fetch = undefined;
    try {
      const result = await argon2.hash({
        pass: hex(job.passHex), salt: hex(job.saltHex), time: job.time, mem: job.mem,
        hashLen: job.hashLen, parallelism: job.parallelism ?? 1, type: argon2.ArgonType.Argon2id,
        secret: hex(job.secretHex), ad: hex(job.adHex),
      });
      out.push(result.hashHex);
    } finally {
      globalThis.fetch = savedFetch;
    }
  }
  process.stdout.write(JSON.stringify(out));
`;

function argon2Browser(jobs: readonly OracleJob[]): string[] {
  const modulePath = createRequire(import.meta.url).resolve("argon2-browser");
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", oracleScript], {
    input: JSON.stringify(jobs),
    encoding: "utf8",
    env: { ...process.env, ARGON2_BROWSER: modulePath },
    maxBuffer: 16 * 1024 * 1024,
  });
  assert.is(child.status, 0, child.stderr);
  const hashes = JSON.parse(child.stdout) as string[];
  assert.is(hashes.length, jobs.length);
  return hashes;
}

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
