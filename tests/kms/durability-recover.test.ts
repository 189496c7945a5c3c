import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openHsm, openNodeState } from "@mc/kms";
import { createMemoryBroker } from "@mc/shared/bus";
import { initCrypto } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { fingerprint, recordSpans, runKmsToExit } from "./data-dir-tools.js";
import { createFixture, kmsBin, runKms } from "./kms-harness.js";

/** `kms recover` (contract §9): reports without writing; cuts the log or moves the directory aside only when asked. */
const recover = suite("kms recover");
const env = { KMS_HSM_KEY: "" };

recover("should report a damaged log, cut it only when asked, keeping the cut bytes aside byte for byte", async () => {
  const fx = await createFixture("software");
  try {
    const first = await runKms(fx, env);
    const apiKey = first.rootApiKey ?? "";
    const root = await first.client();
    for (let i = 0; i < 8; i++) await root.createKey(`key-${i}`);
    root.close();
    await first.proc.stop();
    const logPath = join(fx.dataDir, "log.bin");
    const original = await readFile(logPath);
    const spans = recordSpans(original);
    const victim = spans.at(-3);
    if (!victim) throw new Error(`only ${spans.length} records`);
    const damagedLog = Buffer.from(original);
    damagedLog[victim.offset + victim.size - 2] = (damagedLog[victim.offset + victim.size - 2] ?? 0) ^ 0x40;
    await writeFile(logPath, damagedLog);
    const before = await fingerprint(fx.dataDir);

    const report = await runKmsToExit(kmsBin, ["recover", "--config", fx.configFile], env);
    assert.is(report.code, 1, report.stderr);
    assert.match(report.stdout, `kms: data directory is damaged: log.bin at offset ${victim.offset}: record checksum mismatch`);
    assert.match(report.stdout, `--truncate-at ${victim.offset}`);
    assert.equal(await fingerprint(fx.dataDir), before, "the report changed the directory");

    const wrong = await runKmsToExit(kmsBin, ["recover", "--config", fx.configFile, "--truncate-at", String(victim.offset + 1)], env);
    assert.is(wrong.code, 1);
    assert.match(wrong.stderr, /is not a point where every record before it is intact/);
    assert.equal(await fingerprint(fx.dataDir), before, "a refused cut changed the directory");

    const backup = join(fx.dir, "log-backup");
    const cut = await runKmsToExit(kmsBin, ["recover", "--config", fx.configFile, "--truncate-at", String(victim.offset), "--backup", backup], env);
    assert.is(cut.code, 0, cut.stdout + cut.stderr);
    assert.match(cut.stdout, /result: the node starts/);
    assert.ok((await readFile(join(backup, "log.bin"))).equals(damagedLog), "the backup is not the file as it was");
    assert.ok((await readFile(join(backup, `log.bin.from-byte-${victim.offset}`))).equals(damagedLog.subarray(victim.offset)), "the cut bytes were not kept");
    const kms = await runKms(fx, env);
    try {
      const again = await kms.client(apiKey);
      const names = (await again.call<{ names: string[] }>("GET", "/v1/key/list/*")).names;
      again.close();
      assert.equal(names, ["key-0", "key-1", "key-2", "key-3", "key-4"], "the keys before the cut");
    } finally {
      await kms.proc.stop();
    }
  } finally {
    await fx.cleanup();
  }
});

recover("should move a damaged cluster member's directory aside, so it starts empty and is rebuilt from its peers", async () => {
  await initCrypto();
  const dir = await mkdtemp(join(tmpdir(), "kms-recover-cluster-"));
  const hsmKey = `hsm:aes256:${Buffer.alloc(32, 3).toString("base64")}`;
  const host = "127.0.0.1:1";
  const config = {
    host: "127.0.0.1", port: 0, dataDir: join(dir, "data"), adminIdentity: undefined, tls: undefined, hsm: { kind: "key" as const, key: hsmKey },
    enclaves: ["default"], audit: "off", cluster: { nats: "memory", id: "recover", host, nodes: [host] },
  };
  try {
    const open = async () => openNodeState({ config, hsm: await openHsm(config.hsm, {}), rootIdentity: "h1:x", log: () => undefined, version: "t", bus: createMemoryBroker().connect() });
    const state = await open();
    await state.cluster?.linearize(5000);
    await state.node.propose({ kind: "createEnclave", name: "default" }, "");
    await state.close();
    const segments = (await readdir(join(config.dataDir, "raft"))).filter((n) => n.endsWith(".seg"));
    const seg = join(config.dataDir, "raft", segments[0] ?? "");
    const buf = await readFile(seg);
    buf[buf.length - 3] = (buf[buf.length - 3] ?? 0) ^ 1;
    await writeFile(seg, buf);
    const cliEnv = { KMS_HSM_KEY: hsmKey };
    const report = await runKmsToExit(kmsBin, ["recover", "--data", config.dataDir], cliEnv);
    assert.is(report.code, 1);
    assert.match(report.stdout, /kms: data directory is damaged: raft\/log-000000000001\.seg at offset \d+: /);
    assert.match(report.stdout, /--move-aside/);
    const aside = join(dir, "data.damaged");
    const moved = await runKmsToExit(kmsBin, ["recover", "--data", config.dataDir, "--move-aside", aside], cliEnv);
    assert.is(moved.code, 0, moved.stderr);
    assert.match(moved.stdout, /kms cluster remove HOST:PORT/);
    await stat(config.dataDir).then(() => assert.unreachable("the data directory is still there"), () => undefined);
    assert.ok((await readFile(join(aside, "raft", segments[0] ?? ""))).equals(buf), "the moved directory is not as it was");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

recover.run();
