import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createKmsClient, identityOfCertificate, newApiKey } from "@mc/kms";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createFixture, runKms } from "./kms-harness.js";

const verify = suite("kms with tls.auth: verify");

verify("should accept CA-issued client certificates and refuse self-signed ones", async () => {
  const fx = await createFixture("software");
  try {
    const client = await fx.certs.ca.issueClient("operator");
    await writeFile(join(fx.dir, "client.crt"), client.cert);
    await writeFile(join(fx.dir, "client.key"), client.key, { mode: 0o600 });
    const yaml = fx.defaultYaml().replace("  key: certs/server.key", "  key: certs/server.key\n  ca: certs/ca.crt\n  auth: verify");
    await fx.writeConfig(`${yaml}\nadmin:\n  identity: ${identityOfCertificate(client.cert)}\n`);
    const kms = await runKms(fx, { KMS_HSM_KEY: "" });
    const ca = await readFile(fx.certs.caFile);
    const operator = await createKmsClient({ server: `127.0.0.1:${fx.port}`, ca, certFile: join(fx.dir, "client.crt"), keyFile: join(fx.dir, "client.key") });
    assert.is((await operator.send("GET", "/v1/status")).status, 200);
    const selfSigned = await createKmsClient({ server: `127.0.0.1:${fx.port}`, ca, apiKey: newApiKey() });
    const res = await selfSigned.send("GET", "/v1/identity/self/describe");
    assert.equal([res.status, JSON.parse(res.body.toString())], [401, { message: "tls: client certificate is required" }]);
    assert.is((await selfSigned.send("GET", "/v1/health/live")).status, 200);
    operator.close();
    selfSigned.close();
    await kms.proc.stop();
  } finally {
    await fx.cleanup();
  }
});

verify.run();
