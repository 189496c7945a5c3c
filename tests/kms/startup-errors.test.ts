import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createFixture, runKms, runKmsCli, type KmsFixture } from "./kms-harness.js";

const startup = suite<{ fx: KmsFixture | undefined }>("kms startup errors (contract §7)", { fx: undefined });
const env = { KMS_HSM_KEY: "" };

startup.before(async (ctx) => {
  ctx.fx = await createFixture("software");
});
startup.after(async (ctx) => {
  await ctx.fx?.cleanup();
});

async function expectFailure(fx: KmsFixture, yaml: string, line: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<void> {
  await fx.writeConfig(yaml);
  const { code, stderr } = await runKmsCli(["server", "--config", fx.configFile], { ...env, ...extraEnv });
  assert.is(stderr, `${line}\n`);
  assert.is(code, 1);
  await stat(fx.dataDir).then(
    () => assert.unreachable("the data directory was created"),
    () => undefined,
  );
}

const without = (yaml: string, section: string): string => {
  const lines = yaml.split("\n");
  const i = lines.indexOf(`${section}:`);
  let j = i + 1;
  while (j < lines.length && lines[j]?.startsWith("  ")) j++;
  return [...lines.slice(0, i), ...lines.slice(j)].join("\n");
};

startup("should refuse to start without a tls section", async ({ fx }) => {
  if (!fx) throw new Error("no fixture");
  await expectFailure(fx, without(fx.defaultYaml(), "tls"), "kms: no TLS configuration provided");
});

startup("should refuse a missing or wrong certificate path", async ({ fx }) => {
  if (!fx) throw new Error("no fixture");
  await expectFailure(fx, fx.defaultYaml().replace("certs/server.crt", "certs/missing.crt"), "kms: no server certificate provided");
  await expectFailure(fx, fx.defaultYaml().replace("certs/server.crt", "certs"), "kms: no server certificate provided");
});

startup("should refuse a missing private key file", async ({ fx }) => {
  if (!fx) throw new Error("no fixture");
  const yaml = fx.defaultYaml().replace("certs/server.key", "certs/nope.key");
  await expectFailure(fx, yaml, `kms: no server private key provided: ${join(fx.dir, "certs/nope.key")}`);
});

startup("should refuse to start without an HSM", async ({ fx }) => {
  if (!fx) throw new Error("no fixture");
  await expectFailure(fx, without(fx.defaultYaml(), "hsm"), "kms: no HSM provided");
});

startup("should take the HSM key from KMS_HSM_KEY :: no hsm section", async ({ fx }) => {
  if (!fx) throw new Error("no fixture");
  await fx.writeConfig(without(fx.defaultYaml(), "hsm"));
  const kms = await runKms(fx, { KMS_HSM_KEY: fx.hsmKey });
  assert.ok(kms.rootApiKey?.startsWith("k1:"));
  await kms.proc.stop();
});

startup("should refuse another HSM key for an existing data directory, leaving it untouched", async ({ fx }) => {
  if (!fx) throw new Error("no fixture");
  await fx.writeConfig(fx.defaultYaml());
  const first = await runKms(fx, env);
  await first.proc.stop();
  const before = await snapshot(fx.dataDir);
  const other = `hsm:aes256:${Buffer.alloc(32, 6).toString("base64")}`;
  await fx.writeConfig(fx.defaultYaml().replace(fx.hsmKey, other));
  const { code, stderr } = await runKmsCli(["server", "--config", fx.configFile], env);
  assert.is(stderr, "kms: HSM key does not match the data directory\n");
  assert.is(code, 1);
  assert.equal(await snapshot(fx.dataDir), before);
});

startup("should print the root API key once, on the first start only", async ({ fx }) => {
  if (!fx) throw new Error("no fixture");
  await fx.writeConfig(fx.defaultYaml());
  const again = await runKms(fx, env);
  assert.is(again.rootApiKey, undefined);
  await again.proc.stop();
});

async function snapshot(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).sort();
  return Promise.all(names.map(async (n) => `${n}:${(await stat(join(dir, n))).size}:${(await stat(join(dir, n))).mtimeMs}`));
}

startup.run();
