import { X509Certificate } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import { connect as tlsConnect } from "node:tls";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitFor } from "../harness/wait-for.js";
import { createFixture, runKms, type KmsFixture } from "./kms-harness.js";

const rotation = suite<{ fx: KmsFixture | undefined }>("kms certificate reload", { fx: undefined });

rotation.before(async (ctx) => {
  ctx.fx = await createFixture();
});
rotation.after(async (ctx) => {
  await ctx.fx?.cleanup();
});

function servedFingerprint(port: number, ca: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = tlsConnect({ host: "127.0.0.1", port, ca, servername: "localhost" }, () => {
      resolve(s.getPeerX509Certificate()?.fingerprint256 ?? "");
      s.end();
    });
    s.on("error", reject);
  });
}

rotation("should serve a new certificate within 5 s of the file change, failing no request", async ({ fx }) => {
  if (!fx) throw new Error("no fixture");
  const kms = await runKms(fx, { KMS_HSM_KEY: "" });
  const ca = await readFile(fx.certs.caFile);
  const before = await servedFingerprint(fx.port, ca);
  const client = await kms.client();
  await client.createKey("rot");
  let ok = 0;
  const failures: string[] = [];
  let stop = false;
  const loops = Array.from({ length: 4 }, async () => {
    while (!stop) {
      try {
        await client.generate("rot");
        ok++;
      } catch (e) {
        failures.push(e instanceof Error ? e.message : String(e));
      }
    }
  });
  await waitFor(() => ok > 50, { what: "requests flowing" });

  const next = await fx.certs.ca.issueServer(["127.0.0.1", "localhost"]);
  const expected = new X509Certificate(next.cert).fingerprint256;
  // Replace both files atomically (as cert managers do); the key first would
  // also work: a mismatched pair is refused and retried.
  await writeFile(`${fx.certs.certFile}.new`, next.cert);
  await writeFile(`${fx.certs.keyFile}.new`, next.key, { mode: 0o600 });
  const changed = Date.now();
  await rename(`${fx.certs.certFile}.new`, fx.certs.certFile);
  await rename(`${fx.certs.keyFile}.new`, fx.certs.keyFile);
  await waitFor(async () => (await servedFingerprint(fx.port, ca)) === expected, { what: "the new certificate", timeoutMs: 5000 });
  const took = Date.now() - changed;
  const atSwitch = ok;
  await waitFor(() => ok > atSwitch + 50, { what: "requests after the switch" });
  stop = true;
  await Promise.all(loops);
  client.close();
  assert.is.not(before, expected);
  assert.ok(took <= 5000, `took ${took} ms`);
  assert.equal(failures, []);

  // A broken replacement keeps the old certificate and logs why.
  await writeFile(fx.certs.certFile, "not a certificate");
  await waitFor(() => kms.proc.output().includes("kms: failed to reload TLS certificate: "), { what: "reload failure log" });
  assert.is(await servedFingerprint(fx.port, ca), expected);
  await kms.proc.stop();
});

rotation.run();
