import { appendFile, cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openHsm, openNodeState, StartupError, type KmsConfig } from "@mc/kms";
import { createMemoryBroker } from "@mc/shared/bus";
import { initCrypto } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { fingerprint } from "./data-dir-tools.js";

/**
 * Data directories written before issue 15 (fixtures/first-format, see its
 * README) still open: strictly (any damage refuses, a torn tail included),
 * and are then rewritten in the current format.
 */
const legacy = suite<{ root: string }>("kms first-format data directories", { root: "" });
const fixtures = fileURLToPath(new URL("./fixtures/first-format/", import.meta.url));
const hsmKey = `hsm:aes256:${Buffer.alloc(32, 5).toString("base64")}`;
const host = "127.0.0.1:1";

legacy.before(async (ctx) => {
  await initCrypto();
  ctx.root = await mkdtemp(join(tmpdir(), "kms-first-format-"));
});
legacy.after(async (ctx) => {
  await rm(ctx.root, { recursive: true, force: true });
});

function configOf(dataDir: string, mode: "single" | "cluster"): KmsConfig {
  return {
    host: "127.0.0.1", port: 0, dataDir, adminIdentity: undefined, tls: undefined, hsm: { kind: "key", key: hsmKey }, enclaves: ["default"], audit: "off",
    ...(mode === "cluster" ? { cluster: { nats: "memory", id: "x", host, nodes: [host] } } : {}),
  };
}

async function keysAfterOpen(dataDir: string, mode: "single" | "cluster"): Promise<number> {
  const config = configOf(dataDir, mode);
  const state = await openNodeState({ config, hsm: await openHsm({ kind: "key", key: hsmKey }, {}), rootIdentity: "h1:x", log: () => undefined, version: "t", bus: createMemoryBroker().connect() });
  try {
    if (state.cluster) await state.cluster.linearize(5000);
    assert.not.ok(state.firstStart);
    return state.node.state().enclaves.get("default")?.keys.size ?? 0;
  } finally {
    await state.close();
  }
}

const head = async (path: string): Promise<string> => (await readFile(path)).subarray(0, 8).toString("latin1");

for (const mode of ["single", "cluster"] as const) {
  legacy(`should open a first-format ${mode} directory with every key and rewrite it in the current format`, async ({ root }) => {
    const dir = join(root, `${mode}-ok`);
    await cp(join(fixtures, mode), dir, { recursive: true });
    assert.is(await keysAfterOpen(dir, mode), 25);
    assert.match(await readFile(join(dir, "root-key.json"), "utf8"), /^\{"version":2,"mode":"[a-z]+",.*"sum":"[0-9a-f]{16}"\}\n$/);
    if (mode === "single") {
      assert.equal((await readdir(dir)).sort(), ["log.bin", "root-key.json", "snapshot.bin"]);
      assert.is(await head(join(dir, "log.bin")), "mcrec2\n\0");
      assert.is(await head(join(dir, "snapshot.bin")), "mcblob3\n");
    } else {
      assert.equal((await readdir(dir)).sort(), ["raft", "root-key.json"], "the first format's empty log.bin is gone");
      assert.is(await head(join(dir, "raft", "log-000000000001.seg")), "mcrec2\n\0");
      assert.is(await head(join(dir, "raft", "snapshot.bin")), "mcblob3\n");
    }
    assert.is(await keysAfterOpen(dir, mode), 25, "the rewritten directory opens as well");
  });

  legacy(`should refuse a first-format ${mode} directory with a torn tail, unchanged (the first format cannot prove a tail torn)`, async ({ root }) => {
    const dir = join(root, `${mode}-torn`);
    await cp(join(fixtures, mode), dir, { recursive: true });
    const file = mode === "single" ? "log.bin" : join("raft", "log-000000000001.seg");
    await appendFile(join(dir, file), Buffer.from([0, 0, 0, 90, 1, 2, 3]));
    const before = await fingerprint(dir);
    try {
      await keysAfterOpen(dir, mode);
      assert.unreachable("opened");
    } catch (err) {
      assert.instance(err, StartupError);
      assert.match((err as Error).message, new RegExp(`^kms: data directory is damaged: ${file.replace(/\./g, "\\.")} at offset \\d+: first-format record`));
    }
    assert.equal(await fingerprint(dir), before);
  });
}

legacy.run();
