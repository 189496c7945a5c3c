import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createSoftHsmToken } from "../harness/softhsm.js";
import { createFixture, runKms, runKmsCli } from "./kms-harness.js";

const p11 = suite("kms with a PKCS#11 HSM (SoftHSM2)");

p11("should refuse a wrong PIN with a clear startup error, touching nothing", async () => {
  const fx = await createFixture("pkcs11");
  try {
    const { code, stderr } = await runKmsCli(["server", "--config", fx.configFile], { ...fx.env, KMS_HSM_PIN: "0000" });
    assert.is(stderr, "kms: HSM login failed: CKR_PIN_INCORRECT\n");
    assert.is(code, 1);
    await stat(fx.dataDir).then(() => assert.unreachable("data directory created"), () => undefined);
  } finally {
    await fx.cleanup();
  }
});

p11("should keep its state across restarts and refuse another token's key", async () => {
  const fx = await createFixture("pkcs11");
  try {
    let kms = await runKms(fx);
    const rootApiKey = kms.rootApiKey ?? "";
    assert.match(rootApiKey, /^k1:/);
    let root = await kms.client();
    await root.createKey("p11");
    const g = await root.generate("p11");
    root.close();
    await kms.proc.stop();
    kms = await runKms(fx);
    assert.is(kms.rootApiKey, undefined, "printed only on first start");
    root = await kms.client(rootApiKey);
    assert.is((await root.decrypt("p11", g.ciphertext)).plaintext, g.plaintext);
    const status = await root.call<{ hsm: { kind: string } }>("GET", "/v1/status");
    assert.is(status.hsm.kind, "pkcs11");
    root.close();
    await kms.proc.stop();

    const files = (await readdir(fx.dataDir)).sort();
    const other = await createSoftHsmToken(join(fx.dir, "other-token"));
    const { code, stderr } = await runKmsCli(["server", "--config", fx.configFile], { ...other.env, KMS_HSM_PIN: other.pin });
    assert.is(stderr, "kms: HSM key does not match the data directory\n");
    assert.is(code, 1);
    assert.equal((await readdir(fx.dataDir)).sort(), files);
  } finally {
    await fx.cleanup();
  }
});

p11.run();
