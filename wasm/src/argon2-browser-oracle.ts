import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import * as assert from "uvu/assert";

/**
 * Test-only: argon2-browser, the independent Argon2id implementation we check
 * ours against. It runs only in a child process: loading it installs
 * process-wide unhandledRejection/uncaughtException handlers that would turn
 * any later failure in the test run into a wasm abort, and under Node 20 it
 * needs `globalThis.fetch` hidden around its first call.
 */
export interface OracleJob {
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

/** argon2-browser's hex tags for each job, in order. */
export function argon2Browser(jobs: readonly OracleJob[]): string[] {
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
