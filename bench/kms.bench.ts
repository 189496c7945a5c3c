// KMS data-key throughput against the transport ceiling: generate and decrypt
// per second and p99 with 64 concurrent keep-alive mTLS connections, versus a
// bare Node HTTPS server (same TLS settings, same clients) that answers a
// fixed JSON body of the same size. Prints figures and ratios (target ≥ 0.7x).
import { readFile } from "node:fs/promises";
import { freePort } from "../tests/harness/free-port.js";
import { startProcess } from "../tests/harness/processes.js";
import { waitFor } from "../tests/harness/wait-for.js";
import { createFixture, getStatus, runKms } from "../tests/kms/kms-harness.js";
import { createKmsClient, type KmsClient } from "@mc/kms";
import { medianRun, spreadOf, trustLine } from "./trust.js";

const connections = 64;
const seconds = Number(process.env.BENCH_SECONDS ?? 3);

interface Result {
  readonly perSecond: number;
  readonly p99ms: number;
  readonly p50ms: number;
}

async function measure(client: KmsClient, path: string, body: string): Promise<Result> {
  const run = async (ms: number, record: boolean): Promise<number[]> => {
    const latencies: number[] = [];
    const end = Date.now() + ms;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (Date.now() < end) {
          const t = process.hrtime.bigint();
          const res = await client.send("POST", path, body);
          if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.body.toString()}`);
          if (record) latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
      }),
    );
    return latencies;
  };
  await run(1000, false);
  const lat = (await run(seconds * 1000, true)).sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(lat.length * p))] ?? 0;
  return { perSecond: lat.length / seconds, p99ms: q(0.99), p50ms: q(0.5) };
}

/** The run with the median throughput. */
const median = (runs: readonly Result[]): Result => medianRun(runs, (r) => r.perSecond);

const ceilingScript = `
const https = require("node:https");
const fs = require("node:fs");
const body = Buffer.from(process.env.BODY);
const server = https.createServer({ cert: fs.readFileSync(process.env.CERT), key: fs.readFileSync(process.env.KEY), minVersion: "TLSv1.2", requestCert: true, rejectUnauthorized: false }, (req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(200, { "content-type": "application/json", "content-length": body.length }).end(body));
});
server.listen(Number(process.env.PORT), "127.0.0.1");
`;

async function main(): Promise<void> {
  const fx = await createFixture("software");
  const kms = await runKms(fx, { KMS_HSM_KEY: "" });
  const ca = await readFile(fx.certs.caFile);
  const client = await createKmsClient({ server: `127.0.0.1:${fx.port}`, ca, apiKey: kms.rootApiKey ?? "", maxSockets: connections });
  await client.createKey("bench");
  const sample = await client.send("POST", "/v1/key/generate/bench", "{}");
  const { ciphertext } = JSON.parse(sample.body.toString()) as { ciphertext: string };
  const decryptBody = JSON.stringify({ ciphertext });
  const decryptSample = await client.send("POST", "/v1/key/decrypt/bench", decryptBody);

  const results: [string, Result, Result, string][] = [];
  for (const [name, path, body, answer] of [
    ["generate", "/v1/key/generate/bench", "{}", sample.body],
    ["decrypt", "/v1/key/decrypt/bench", decryptBody, decryptSample.body],
  ] as const) {
    const port = await freePort();
    const ceiling = startProcess(process.execPath, ["-e", ceilingScript], {
      env: { ...process.env, CERT: fx.certs.certFile, KEY: fx.certs.keyFile, PORT: String(port), BODY: answer.toString() },
    });
    await waitFor(async () => (await getStatus(port, "/", ca)) === 200, { what: "ceiling server" });
    const bare = await createKmsClient({ server: `127.0.0.1:${port}`, ca, apiKey: kms.rootApiKey ?? "", maxSockets: connections });
    // Alternate short rounds, so load from elsewhere on the machine hits both sides alike.
    const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
    const kmsRuns: Result[] = [];
    const bareRuns: Result[] = [];
    for (let i = 0; i < rounds; i++) {
      kmsRuns.push(await measure(client, path, body));
      bareRuns.push(await measure(bare, path, body));
    }
    const kmsResult = median(kmsRuns);
    const bareResult = median(bareRuns);
    bare.close();
    await ceiling.stop();
    results.push([`${name} (${answer.length} B answer)`, kmsResult, bareResult, trustLine(rounds, { kms: spreadOf(kmsRuns, (r) => r.perSecond), ceiling: spreadOf(bareRuns, (r) => r.perSecond) })]);
  }
  client.close();
  await kms.proc.stop();
  await fx.cleanup();
  const f = (r: Result) => `${Math.round(r.perSecond).toString().padStart(7)}/s  p50 ${r.p50ms.toFixed(2)} ms  p99 ${r.p99ms.toFixed(2)} ms`;
  process.stdout.write(`${connections} keep-alive mTLS connections, median of ${process.env.BENCH_ROUNDS ?? 3} alternating ${seconds} s runs\n`);
  for (const [name, k, b, trust] of results) {
    process.stdout.write(`${name}\n  kms      ${f(k)}\n  ceiling  ${f(b)}\n  ratio    ${(k.perSecond / b.perSecond).toFixed(2)}x throughput, p99 ${(k.p99ms / b.p99ms).toFixed(2)}x\n${trust}`);
  }
}

await main();
