// Issue 21, attribution before change: where one KMS node spends its CPU per
// decrypt (or generate). The node runs under --cpu-prof while 64 keep-alive
// mTLS connections send the operation for PROFILE_SECONDS (default 5); the
// table gives µs per operation by category and the top functions.
// `node --import tsx bench/profile/kms-decrypt.ts [decrypt|generate]`
import "./source-paths.js";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKmsClient } from "@mc/kms";
import { startProcess } from "../../tests/harness/processes.js";
import { waitFor } from "../../tests/harness/wait-for.js";
import { createFixture, getStatus, kmsBin } from "../../tests/kms/kms-harness.js";
import { nowUs, printTable, selfTimes, type Rule } from "./cpu-table.js";

const operation = process.argv[2] === "generate" ? "generate" : "decrypt";
const seconds = Number(process.env.PROFILE_SECONDS ?? 5);
const connections = 64;

export const kmsRules: readonly Rule[] = [
  ["garbage collection", /^\(garbage collector\)/],
  ["libsodium (WASM)", /wasm-function|sodium|libsodium/i],
  ["TLS and sockets (node internals)", /_tls_|node:tls|tls_wrap|TLSSocket|onStreamRead|writeGeneric|writev|stream_base|net:|node:net|afterWrite/],
  ["HTTP parsing and answers", /_http_|node:http|parserOnHeaders|parserOnBody|parserOnMessageComplete|OutgoingMessage|ServerResponse|IncomingMessage|writeHead/],
  ["JSON", /JSON|parse |stringify/],
  ["base64 and buffers", /base64|Buffer|buffer:|toString|fromString|byteLength/],
  ["streams and events", /streams\/|node:events|emit|Readable|Writable|nextTick|processTicksAndRejections|runMicrotasks/],
  ["policy and identity", /policy|authz|identity|admission|canonical/i],
  ["audit and metrics", /audit|metric|prom/i],
  ["(program) native", /^\(program\)/],
];

const dir = await mkdtemp(join(tmpdir(), "kms-profile-"));
const fx = await createFixture("software");
// --cpu-prof is refused in NODE_OPTIONS: the server is started here rather than by runKms.
const proc = startProcess(process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, kmsBin, "server", "--config", fx.configFile], { env: { ...process.env, ...fx.env, KMS_HSM_KEY: "" } });
const ca = await readFile(fx.certs.caFile);
await waitFor(async () => (await getStatus(fx.port, "/v1/health/ready", ca)) === 200, { what: "kms ready", timeoutMs: 60000 });
const apiKey = /API Key (k1:\S+)/.exec(proc.output())?.[1] ?? "";
const client = await createKmsClient({ server: `127.0.0.1:${fx.port}`, ca, apiKey, maxSockets: connections });
try {
  await client.createKey("bench");
  const sample = await client.send("POST", "/v1/key/generate/bench", "{}");
  const { ciphertext } = JSON.parse(sample.body.toString()) as { ciphertext: string };
  const [path, body] = operation === "generate" ? ["/v1/key/generate/bench", "{}"] : ["/v1/key/decrypt/bench", JSON.stringify({ ciphertext })];
  let done = 0;
  const load = async (ms: number): Promise<void> => {
    const end = Date.now() + ms;
    await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const res = await client.send("POST", path, body);
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        done++;
      }
    }),
  );
  };
  // A second of warm-up (JIT, connections), then the measured window.
  await load(1000);
  done = 0;
  const fromUs = nowUs();
  await load(seconds * 1000);
  const toUs = nowUs();
  client.close();
  // SIGTERM: the node exits normally and writes its profile.
  await proc.stop(10000);
  process.stdout.write(`${operation}: ${done} in ${seconds} s (${Math.round(done / seconds)}/s) with ${connections} connections; server samples of that window only\n`);
  printTable(await selfTimes(dir, { fromUs, toUs }), kmsRules, done);
} finally {
  await fx.cleanup();
  await rm(dir, { recursive: true, force: true });
}
