import { mkdtemp, readdir, readFile, rm, stat, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { freePort } from "../harness/free-port.js";
import { startProcess } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";
import { fingerprint, recordSpans, runKmsToExit } from "./data-dir-tools.js";
import { createFixture, kmsBin, runKms, runKmsCli, type KmsFixture } from "./kms-harness.js";

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

// Issue 15: a damaged data directory refuses to start with one line naming the
// file and the offset, and leaves every byte as it was (contract §9).
const damage = suite("kms data directory damage");
const damageLine = (file: string, offset?: number): RegExp =>
  new RegExp(`^kms: data directory is damaged: ${file.replace(/\./g, "\\.")} at offset ${offset ?? "\\d+"}: [^\n]+\n$`);

/** A stopped node with `keys` keys in enclave default; resolves its fixture. */
async function nodeWithKeys(keys: number): Promise<KmsFixture> {
  const fx = await createFixture("software");
  const kms = await runKms(fx, env);
  try {
    const root = await kms.client();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < keys) await root.createKey(`k-${next++}`);
    };
    await Promise.all(Array.from({ length: Math.min(16, keys) }, worker));
    root.close();
  } finally {
    await kms.proc.stop();
  }
  return fx;
}

async function expectDamage(fx: KmsFixture, file: string, offset?: number): Promise<void> {
  const before = await fingerprint(fx.dataDir);
  const { code, stderr, stdout } = await runKmsToExit(kmsBin, ["server", "--config", fx.configFile], { ...env, ...fx.env });
  assert.match(stderr, damageLine(file, offset));
  assert.is(code, 1);
  assert.not.match(stdout + stderr, /k1:/, "no root API key is printed for a damaged directory");
  assert.equal(await fingerprint(fx.dataDir), before, "the data directory changed");
}

async function mutateLog(fx: KmsFixture, change: (buf: Buffer, spans: ReturnType<typeof recordSpans>) => number): Promise<number> {
  const path = join(fx.dataDir, "log.bin");
  const buf = await readFile(path);
  const offset = change(buf, recordSpans(buf));
  await writeFile(path, buf);
  return offset;
}

damage("should refuse a record length of 0x7fffffff instead of dropping the records from there on", async () => {
  const fx = await nodeWithKeys(4);
  try {
    const offset = await mutateLog(fx, (buf, spans) => {
      const second = spans[1];
      if (!second) throw new Error(`too few records: ${spans.length}`);
      buf.writeUInt32BE(0x7fffffff, second.offset);
      return second.offset;
    });
    await expectDamage(fx, "log.bin", offset);
  } finally {
    await fx.cleanup();
  }
});

damage("should refuse a flipped byte inside the last record (it is full length, so not a torn write)", async () => {
  const fx = await nodeWithKeys(4);
  try {
    const offset = await mutateLog(fx, (buf, spans) => {
      const last = spans.at(-1);
      if (!last) throw new Error("no records");
      const at = last.offset + last.size - 5;
      buf[at] = (buf[at] ?? 0) ^ 0x01;
      return last.offset;
    });
    await expectDamage(fx, "log.bin", offset);
  } finally {
    await fx.cleanup();
  }
});

damage("should refuse a damaged first record rather than take the directory for a first start", async () => {
  const fx = await nodeWithKeys(4);
  try {
    const offset = await mutateLog(fx, (buf, spans) => {
      const first = spans[0];
      if (!first) throw new Error("no records");
      const at = first.offset + first.size - 3;
      buf[at] = (buf[at] ?? 0) ^ 0x80;
      return first.offset;
    });
    await expectDamage(fx, "log.bin", offset);
  } finally {
    await fx.cleanup();
  }
});

damage("should refuse a missing snapshot.bin instead of starting empty", async () => {
  // 1,000 entries (two enclaves and 998 keys) made the first snapshot in the original format.
  const fx = await nodeWithKeys(1010);
  try {
    assert.ok((await readdir(fx.dataDir)).includes("snapshot.bin"), "no snapshot was written");
    await unlink(join(fx.dataDir, "snapshot.bin"));
    await expectDamage(fx, "snapshot.bin", 0);
  } finally {
    await fx.cleanup();
  }
});

damage("should refuse a missing root-key.json without writing a new one", async () => {
  const fx = await nodeWithKeys(2);
  try {
    await unlink(join(fx.dataDir, "root-key.json"));
    await expectDamage(fx, "root-key.json", 0);
  } finally {
    await fx.cleanup();
  }
});

damage("should refuse an audit log configured inside data_dir, before creating anything", async () => {
  const fx = await createFixture("software");
  try {
    await fx.writeConfig(fx.defaultYaml().replace("  audit: audit.log", "  audit: data/audit.log"));
    const { code, stderr } = await runKmsToExit(kmsBin, ["server", "--config", fx.configFile], env);
    assert.is(stderr, "kms: invalid configuration: log.audit " + join(fx.dir, "data/audit.log") + " is inside data_dir, which holds only the node's own files\n");
    assert.is(code, 1);
    await stat(fx.dataDir).then(() => assert.unreachable("the data directory was created"), () => undefined);
  } finally {
    await fx.cleanup();
  }
});

damage("should print the root API key on stderr only :: kms server", async () => {
  const fx = await createFixture("software");
  try {
    const proc = startProcess(process.execPath, [kmsBin, "server", "--config", fx.configFile], { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    proc.child.stdout?.on("data", (c: Buffer) => (stdout += c.toString()));
    proc.child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
    await waitFor(() => /listening on/.test(stderr), { what: `kms listening: ${proc.output()}`, timeoutMs: 20000 });
    await proc.stop();
    assert.match(stderr, /^API Key k1:\S+$/m);
    assert.not.match(stdout, /k1:/);
  } finally {
    await fx.cleanup();
  }
});

damage("should print the root API key on stderr only :: npm start (gateway with the embedded KMS)", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "gateway-kms-key-"));
  try {
    const gatewayBin = fileURLToPath(new URL("../../app/bin/gateway.js", import.meta.url));
    const args = ["--listen", `127.0.0.1:${await freePort()}`, "--kms-listen", `127.0.0.1:${await freePort()}`];
    const proc = startProcess(process.execPath, [gatewayBin, ...args], { env: { ...process.env, DATA_DIR: dataDir } });
    let stdout = "";
    let stderr = "";
    proc.child.stdout?.on("data", (c: Buffer) => (stdout += c.toString()));
    proc.child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
    await waitFor(() => /gateway ready/.test(stdout), { what: `gateway ready: ${proc.output()}`, timeoutMs: 30000 });
    await proc.stop();
    assert.match(stderr, /k1:[A-Za-z0-9_-]{43}/);
    assert.not.match(stdout, /k1:/);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

damage.run();
