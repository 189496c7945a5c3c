// A single node whose disk refuses its writes (here RLIMIT_FSIZE: a file may
// not grow past 64 KiB, the same failed write as a full disk) stops taking
// writes in one logged line, keeps serving reads, says so on
// /v1/health/ready?write, and after a restart without the limit holds every
// key it acknowledged and takes writes again. Before, each later write logged
// a stack, answered 500 after a second, and readiness said "ready".
import { readFile } from "node:fs/promises";
import { createKmsClient } from "@mc/kms";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startProcess } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";
import { createFixture, getStatus, kmsBin, runKms, type KmsFixture } from "./kms-harness.js";

const full = suite<{ fx: KmsFixture | undefined }>("kms single node on a disk that refuses writes", { fx: undefined });
const env = { KMS_HSM_KEY: "" };
const limitBytes = 64 * 1024;

full.before(async (ctx) => {
  ctx.fx = await createFixture();
  // The audit log is another file that grows with every request: on stdout, the command log is what fills.
  await ctx.fx.writeConfig(ctx.fx.defaultYaml().replace("audit: audit.log", "audit: off"));
});
full.after(async (ctx) => {
  await ctx.fx?.cleanup();
});

full("should refuse writes in one line, serve reads, report it on ready?write, and lose no acknowledged key :: a restart", async ({ fx }) => {
  if (!fx) throw new Error("no fixture");
  // A first start without the limit: the data directory and the root key, and a fresh kms bundle.
  let kms = await runKms(fx, env);
  const rootApiKey = kms.rootApiKey ?? "";
  await kms.proc.stop();
  const ca = await readFile(fx.certs.caFile);
  const limited = startProcess("prlimit", [`--fsize=${limitBytes}`, process.execPath, kmsBin, "server", "--config", fx.configFile], { env: { ...process.env, ...fx.env, ...env } });
  const acknowledged: string[] = [];
  let refusal = "";
  try {
    await waitFor(async () => (await getStatus(fx.port, "/v1/health/ready", ca)) === 200, { what: `limited kms ready: ${limited.output()}`, timeoutMs: 60000 });
    const c = await createKmsClient({ server: `127.0.0.1:${fx.port}`, ca, apiKey: rootApiKey });
    for (let i = 0; i < 3000 && refusal === ""; i++) {
      const name = `k-${String(i).padStart(5, "0")}-${"x".repeat(40)}`;
      await c.createKey(name).then(
        () => acknowledged.push(name),
        (err: unknown) => (refusal = err instanceof Error ? err.message : String(err)),
      );
    }
    assert.ok(acknowledged.length > 10, `only ${acknowledged.length} keys before the refusal: ${refusal}`);
    assert.match(refusal, /the node cannot write to its data directory \(EFBIG from the disk\); restart it once the disk is fixed/);
    // Every later write is refused the same way; reads go on.
    await c.createKey("after-the-failure").then(
      () => assert.unreachable("a write was taken after the failure"),
      (err: unknown) => assert.match(String(err), /cannot write to its data directory/),
    );
    assert.is((await c.generate(acknowledged[0] ?? "")).version, 1);
    assert.is(await getStatus(fx.port, "/v1/health/ready", ca), 200);
    assert.is(await getStatus(fx.port, "/v1/health/ready?write", ca), 503);
    c.close();
    assert.equal(limited.output().split("\n").filter((l) => l.includes("cannot write the command log")).length, 1, limited.output());
    assert.not.match(limited.output(), /\n\s+at /, "a stack trace was logged");
  } finally {
    await limited.stop();
  }
  kms = await runKms(fx, env);
  const c = await kms.client(rootApiKey);
  try {
    const names = new Set((await c.call<{ names: string[] }>("GET", "/v1/key/list/*")).names);
    assert.equal(acknowledged.filter((n) => !names.has(n)), [], "acknowledged keys lost");
    assert.not.ok(names.has("after-the-failure"));
    await c.createKey("after-the-restart");
    assert.is((await c.generate("after-the-restart")).version, 1);
  } finally {
    c.close();
    await kms.proc.stop();
  }
});

full("should refuse every request once its audit log cannot be written, and stay up to say so :: audit to /dev/full", async () => {
  const fx = await createFixture();
  // /dev/full fails every write with ENOSPC. Before, the first audit line crashed the node (an unhandled stream error).
  await fx.writeConfig(fx.defaultYaml().replace("audit: audit.log", "audit: /dev/full"));
  const kms = await runKms(fx, env);
  const ca = await readFile(fx.certs.caFile);
  const c = await kms.client();
  try {
    // Served (its audit line is written after the answer); the write of that line fails.
    await c.createKey("audited-or-not");
    await waitFor(async () => (await getStatus(fx.port, "/v1/health/ready", ca)) === 503, { what: "not ready once the audit log failed", timeoutMs: 10000 });
    await c.generate("audited-or-not").then(
      () => assert.unreachable("a request was served without its audit line"),
      (err: unknown) => assert.match(String(err), /the node cannot write its audit log; restart it once the disk is fixed/),
    );
    assert.is(kms.proc.child.exitCode, null, "the node exited");
    assert.equal(kms.proc.output().split("\n").filter((l) => l.includes("cannot write the audit log /dev/full")).length, 1, kms.proc.output());
    assert.not.match(kms.proc.output(), /\n\s+at /, "a stack trace was logged");
  } finally {
    c.close();
    await kms.proc.stop();
    await fx.cleanup();
  }
});

full.run();
