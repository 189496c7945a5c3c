// run-all: alone (it measures elections, failover or 2 s visibility, which a busy neighbour would distort)
import { readdir } from "node:fs/promises";
import { createPrng } from "@mc/consensus";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createFixture, runKms, type RunningKms } from "./kms-harness.js";

/**
 * Issue 15: a real `kms server` killed with SIGKILL while 16 clients create
 * keys, twenty times over one data directory. Every restart must start (a
 * kill leaves at most a torn tail or a temporary file, never damage) and
 * hold every key whose creation was acknowledged; only writes in flight at
 * the kill may be missing. The keys add up across rounds, so snapshots and
 * log restarts happen under the kills too.
 */
const seed = Number(process.env.KMS_CRASH_SEED ?? 9_1501);
const rounds = 20;
const perRound = 1000;
const clients = 16;
const env = { KMS_HSM_KEY: "" };

const crash = suite("kms kill -9 during key creation");

async function names(kms: RunningKms, apiKey: string): Promise<Set<string>> {
  const c = await kms.client(apiKey);
  try {
    return new Set((await c.call<{ names: string[] }>("GET", "/v1/key/list/*")).names);
  } finally {
    c.close();
  }
}

crash(`should keep every acknowledged key through ${rounds} kills (seed ${seed})`, async () => {
  const random = createPrng(seed);
  const fx = await createFixture("software");
  const started = Date.now();
  try {
    let kms = await runKms(fx, env);
    const apiKey = kms.rootApiKey ?? "";
    assert.ok(apiKey.startsWith("k1:"), "the first start printed the root API key");
    const acked: string[] = [];
    const ackedSet = new Set<string>();
    let inFlightLost = 0;
    for (let round = 0; round < rounds; round++) {
      // Kill somewhere between the 20th and the 950th acknowledgement of this round.
      const killAfter = 20 + Math.floor(random() * 930);
      const client = await kms.client(apiKey);
      let next = 0;
      let ackedNow = 0;
      let killing: Promise<void> | undefined;
      const worker = async (): Promise<void> => {
        while (next < perRound && !killing) {
          const name = `r${round}-k${next++}`;
          try {
            const res = await client.send("POST", `/v1/key/create/${name}`, {});
            if (res.status === 200) {
              acked.push(name);
              ackedSet.add(name);
              ackedNow++;
            }
          } catch {
            return;
          }
          if (ackedNow >= killAfter && !killing) killing = kms.proc.kill();
        }
      };
      await Promise.all(Array.from({ length: clients }, worker));
      await killing;
      client.close();
      kms = await runKms(fx, env);
      assert.is(kms.rootApiKey, undefined, `round ${round}: the restart was taken for a first start`);
      const present = await names(kms, apiKey);
      const lost = acked.filter((n) => !present.has(n));
      assert.equal(lost, [], `round ${round} (killed after ${ackedNow} acknowledgements): ${lost.length} acknowledged keys lost`);
      inFlightLost += next - ackedNow - [...present].filter((n) => n.startsWith(`r${round}-`) && !ackedSet.has(n)).length;
      if (round % 5 === 4) {
        const c = await kms.client(apiKey);
        const sample = acked[Math.floor(random() * acked.length)] ?? "";
        const g = await c.generate(sample, new Uint8Array([round]));
        assert.equal((await c.decrypt(sample, g.ciphertext, new Uint8Array([round]))).plaintext, g.plaintext);
        c.close();
      }
    }
    const files = await readdir(fx.dataDir);
    console.log(`\n  kill -9 x${rounds} (seed ${seed}): ${acked.length} acknowledged keys, all present after every restart; ${inFlightLost} unacknowledged writes lost; files now ${files.join(", ")}; ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await kms.proc.stop();
  } finally {
    await fx.cleanup();
  }
});

crash.run();
