import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { damageOf, encodeBlob, encodeChunkedBlob } from "@mc/consensus";
import { initCrypto } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createSoftwareHsm } from "../hsm/software-hsm.js";
import { listDataDir } from "./data-dir.js";
import { createLocalNode, type LocalNode } from "./local-node.js";
import { inspectDataDir, openDataDir } from "./open-data-dir.js";
import { encodeStateJson } from "./state-json.js";

const snapshots = suite("snapshot.bin versions and damage (issue 26)");
const hsm = () => createSoftwareHsm(new Uint8Array(32).fill(9));
const issuer = `h1:${"C".repeat(43)}`;

async function open(dir: string, snapshotEvery = Number.MAX_SAFE_INTEGER): Promise<LocalNode> {
  const opened = await openDataDir(dir, hsm(), { mode: "single", enclaves: ["default"], now: () => new Date().toISOString() });
  if (!opened.local) throw new Error("no local store");
  return createLocalNode(opened.local, { snapshotEvery });
}

/** A directory whose snapshot.bin holds `keys` keys (16 KiB chunks, about 90 keys each) and whose log is empty. */
async function directory(keys: number): Promise<{ dir: string; names: string[] }> {
  const dir = join(await mkdtemp(join(tmpdir(), "kms-snapfile-")), "data");
  const node = await open(dir, keys);
  const names = Array.from({ length: keys }, (_, i) => `tenant-${String(i).padStart(6, "0")}`);
  await Promise.all(names.map((name) => node.propose({ kind: "createKey", enclave: "default", name, algorithm: "XCHACHA20-POLY1305", material: { sealedKey: randomBytes(73), sealedHmacKey: randomBytes(73) } }, issuer)));
  await node.close();
  return { dir, names };
}

const keyNames = (node: LocalNode): string[] => node.state().enclaves.get("default")?.keys.names.slice("", 1e9) ?? [];

snapshots("a version 3 snapshot is written and loads every key; older bodies (version 2 JSON, chunked or one seal) still load", async () => {
  await initCrypto();
  const { dir, names } = await directory(3000);
  try {
    // Version 3 takes under 250 bytes a key (version 2 took over 400).
    const file = await readFile(join(dir, "snapshot.bin"));
    assert.ok(file.length > 3000 * 150 && file.length < 3000 * 250, `${file.length} bytes for 3000 keys`);
    let node = await open(dir);
    assert.equal(keyNames(node), names);
    const state = node.state();
    await node.close();
    const { rootKey, storeId } = await inspectDataDir(dir, (await listDataDir(dir)) ?? [], hsm(), "single");
    const header = { tag: "kms-snap", storeId, index: Number(state.appliedIndex) };
    for (const older of [await encodeChunkedBlob(rootKey, header, [encodeStateJson(state)]), encodeBlob(rootKey, header, encodeStateJson(state))]) {
      await writeFile(join(dir, "snapshot.bin"), older);
      node = await open(dir);
      assert.equal(node.state(), state);
      await node.close();
    }
  } finally {
    await rm(join(dir, ".."), { recursive: true, force: true });
  }
});

snapshots("a version 3 snapshot.bin with a flipped byte or cut short refuses to open and is left as it was", async () => {
  await initCrypto();
  const { dir } = await directory(1600);
  try {
    const path = join(dir, "snapshot.bin");
    const good = await readFile(path);
    const files = async () => Promise.all((await readdir(dir)).sort().map(async (f) => [f, (await readFile(join(dir, f))).toString("hex")]));
    const chunk = 16 * 1024 + 40 + 4;
    const offsets = [0, 9, 20, 33, 41, 49, 61, 64, 65, 64 + 30, 64 + chunk - 1, 64 + chunk, 64 + chunk + 100, good.length - 5, good.length - 1];
    for (const at of offsets) {
      const bad = Buffer.from(good);
      bad[at] = (bad[at] ?? 0) ^ 0x10;
      await writeFile(path, bad);
      const before = await files();
      await open(dir).then(
        () => assert.unreachable(`a flip at ${at} opened`),
        (e: unknown) => assert.ok(damageOf(e)?.file === "snapshot.bin", `a flip at ${at}: ${String(e)}`),
      );
      assert.equal(await files(), before, `a flip at ${at} changed the directory`);
    }
    for (const cut of [good.length - 1, 64 + chunk, 100, 10]) {
      await writeFile(path, good);
      await truncate(path, cut);
      await open(dir).then(
        () => assert.unreachable(`cut at ${cut} opened`),
        (e: unknown) => assert.ok(damageOf(e)?.file === "snapshot.bin", `cut at ${cut}: ${String(e)}`),
      );
    }
    await writeFile(path, good);
    const node = await open(dir);
    assert.is(node.state().enclaves.get("default")?.keys.size, 1600);
    await node.close();
  } finally {
    await rm(join(dir, ".."), { recursive: true, force: true });
  }
});

snapshots.run();
