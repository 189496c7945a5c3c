import { X509Certificate } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKmsClient, startEmbeddedKms } from "@mc/kms";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { freePort } from "../harness/free-port.js";
import { startProcess } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";
import { createFixture, kmsBin, runKms, runKmsCli } from "./kms-harness.js";

const embedded = suite("embedded KMS and the kms command");

embedded("should start the embedded node with dev certificates and an HSM key file next to its data directory", async () => {
  const root = await mkdtemp(join(tmpdir(), "kms-embedded-"));
  try {
    const port = await freePort();
    const dataDir = join(root, "kms");
    const logs: string[] = [];
    let kms = await startEmbeddedKms({ dataDir, host: "127.0.0.1", port, log: (l) => logs.push(l) });
    assert.ok(kms.firstStart);
    assert.is(kms.hsmKeyFile, join(root, "kms-hsm.key"));
    assert.is((await stat(kms.hsmKeyFile)).mode & 0o777, 0o600);
    assert.match(logs.join("\n"), /kms-hsm\.key/);
    assert.not.match(logs.join("\n"), /k1:/);
    const client = await createKmsClient({ server: `127.0.0.1:${port}`, ca: await readFile(kms.caFile), apiKey: kms.rootApiKey });
    await client.createKey("embedded");
    client.close();
    await kms.close();
    kms = await startEmbeddedKms({ dataDir, host: "127.0.0.1", port, log: () => undefined });
    assert.not.ok(kms.firstStart);
    const again = await createKmsClient({ server: `127.0.0.1:${port}`, ca: await readFile(kms.caFile), apiKey: kms.rootApiKey });
    assert.equal((await again.call<{ names: string[] }>("GET", "/v1/key/list/*")).names, ["embedded"]);
    again.close();
    await kms.close();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

embedded("should print HSM keys, API keys and certificate identities", async () => {
  const hsm = await runKmsCli(["hsm", "new"]);
  assert.match(hsm.stdout, /^hsm:aes256:[A-Za-z0-9+/]{43}=\n$/);
  const api = await runKmsCli(["apikey", "new"]);
  assert.match(api.stdout, /^API Key  k1:[A-Za-z0-9_-]{43}\nIdentity h1:[A-Za-z0-9_-]{43}\n$/);
  const fx = await createFixture("software");
  try {
    const id = await runKmsCli(["identity", "of", fx.certs.certFile]);
    assert.is(id.code, 0);
    assert.match(id.stdout, /^h1:[A-Za-z0-9_-]{43}\n$/);
    const { identityOfCertificate } = await import("@mc/kms");
    assert.is(id.stdout.trim(), identityOfCertificate(new X509Certificate(await readFile(fx.certs.certFile))));
  } finally {
    await fx.cleanup();
  }
});

embedded("should start with a passphrase HSM and an explicit admin identity", async () => {
  const fx = await createFixture("software");
  try {
    const api = await runKmsCli(["apikey", "new"]);
    const apiKey = /k1:\S+/.exec(api.stdout)?.[0] ?? "";
    const identity = /h1:\S+/.exec(api.stdout)?.[0] ?? "";
    const yaml = fx.defaultYaml().replace(`  key: ${fx.hsmKey}`, `  passphrase: {env: KMS_TEST_PASS, salt: ${Buffer.alloc(16, 1).toString("base64")}}`);
    await writeFile(fx.configFile, `${yaml}\nadmin:\n  identity: ${identity}\n`);
    const kms = await runKms(fx, { KMS_HSM_KEY: "", KMS_TEST_PASS: "a long passphrase" });
    assert.is(kms.rootApiKey, undefined, "no derived key is printed when admin.identity is set");
    const admin = await kms.client(apiKey);
    assert.is((await admin.call<{ hsm: { kind: string } }>("GET", "/v1/status")).hsm.kind, "passphrase");
    admin.close();
    await kms.proc.stop();
  } finally {
    await fx.cleanup();
  }
});

embedded("should run an ephemeral development node with kms server --dev, and leave nothing of it behind", async () => {
  const port = await freePort();
  // Its own TMPDIR: what the node leaves behind (its CA key among it) shows there.
  const tmp = await mkdtemp(join(tmpdir(), "kms-dev-test-"));
  const proc = startProcess(process.execPath, [kmsBin, "server", "--dev", "--address", `127.0.0.1:${port}`], { env: { ...process.env, KMS_HSM_KEY: "", TMPDIR: tmp } });
  try {
    const ready = await waitFor(() => /CA (\S+)\)/.exec(proc.output()) ?? undefined, { what: "dev node started", timeoutMs: 60000 });
    const apiKey = /API Key (k1:\S+)/.exec(proc.output())?.[1] ?? "";
    const client = await createKmsClient({ server: `127.0.0.1:${port}`, ca: await readFile(ready[1] ?? ""), apiKey });
    await client.createKey("dev");
    assert.is((await client.generate("dev")).version, 1);
    client.close();
  } finally {
    await proc.stop();
  }
  assert.is(proc.child.exitCode, 0, proc.output());
  assert.equal(await readdir(tmp), [], "left behind after SIGTERM");
  // A node that cannot start leaves nothing either: before, a taken port left the dev CA's key in a temporary folder.
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  try {
    for (const [address, line] of [[`127.0.0.1:${(taken.address() as AddressInfo).port}`, /cannot listen on 127\.0\.0\.1:\d+: listen EADDRINUSE/], ["bogus", /address 'bogus' is not HOST:PORT/]] as const) {
      const failed = spawnSync(process.execPath, [kmsBin, "server", "--dev", "--address", address], { encoding: "utf8", env: { ...process.env, KMS_HSM_KEY: "", TMPDIR: tmp }, timeout: 60_000 });
      assert.is(failed.status, 1, address);
      assert.match(failed.stderr, line);
      assert.equal(await readdir(tmp), [], `left behind by --address ${address}`);
    }
  } finally {
    taken.close();
    await rm(tmp, { recursive: true, force: true });
  }
});

embedded.run();
