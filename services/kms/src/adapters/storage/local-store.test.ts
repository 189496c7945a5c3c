import { appendFile, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initCrypto } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createSoftwareHsm } from "../hsm/software-hsm.js";
import { HsmMismatchError } from "../hsm/hsm.js";
import { createSodiumCrypto } from "../sodium-crypto.js";
import { createKms } from "../../domain/kms.js";
import { createLocalNode } from "./local-node.js";
import type { Hsm } from "../hsm/hsm.js";
import { openDataDir } from "./open-data-dir.js";
import type { LocalStore } from "./local-store.js";

const store = suite("local durable store");
const hsmKey = new Uint8Array(32).fill(7);
const material = { sealedKey: new Uint8Array([1, 2, 3]), sealedHmacKey: new Uint8Array([4]) };

async function openLocalStore(dir: string, hsm: Hsm): Promise<LocalStore & { readonly firstStart: boolean }> {
  const opened = await openDataDir(dir, hsm, { mode: "single", enclaves: [], now: () => "2024-01-01T00:00:00Z" });
  if (!opened.local) throw new Error("no local store");
  return Object.assign(opened.local, { firstStart: opened.firstStart });
}

store("should replay log and snapshot after a restart, and refuse another HSM key", async () => {
  await initCrypto();
  const dir = join(await mkdtemp(join(tmpdir(), "kms-store-")), "data");
  try {
    let node = createLocalNode(await openLocalStore(dir, createSoftwareHsm(hsmKey)), { snapshotEvery: 5 });
    await node.propose({ kind: "createEnclave", name: "default" }, "");
    await Promise.all(Array.from({ length: 12 }, (_, i) => node.propose({ kind: "createKey", enclave: "default", name: `k${i}`, algorithm: "A", material }, "me")));
    await node.close();
    node = createLocalNode(await openLocalStore(dir, createSoftwareHsm(hsmKey)));
    assert.is(node.state().enclaves.get("default")?.keys.size, 12);
    assert.is(node.state().appliedIndex, 13n);
    await node.propose({ kind: "deleteKey", enclave: "default", name: "k0" }, "me");
    await node.close();
    // A torn final record (crash mid-append) is cut off, the rest survives.
    await appendFile(join(dir, "log.bin"), new Uint8Array([0, 0, 0, 90, 1, 2, 3]));
    node = createLocalNode(await openLocalStore(dir, createSoftwareHsm(hsmKey)));
    assert.is(node.state().enclaves.get("default")?.keys.size, 11);
    await node.close();
    const before = await readdir(dir);
    await openLocalStore(dir, createSoftwareHsm(new Uint8Array(32).fill(8))).then(
      () => assert.unreachable(),
      (e: unknown) => assert.instance(e, HsmMismatchError),
    );
    assert.equal(await readdir(dir), before);
    for (const f of before) {
      const data = await readFile(join(dir, f));
      assert.not.ok(data.includes(Buffer.from(hsmKey)), `${f} holds the HSM key`);
      assert.not.ok(data.includes(Buffer.from("k11")), `${f} holds plaintext`);
    }
  } finally {
    await rm(dirname(dir), { recursive: true, force: true });
  }
});

store("should hold no unsealed key material in any file :: generated keys, rotations, snapshots", async () => {
  await initCrypto();
  const dir = join(await mkdtemp(join(tmpdir(), "kms-scan-")), "data");
  try {
    const s = await openLocalStore(dir, createSoftwareHsm(hsmKey));
    const node = createLocalNode(s, { snapshotEvery: 7 });
    const crypto = createSodiumCrypto(s.rootKey);
    const root = "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const kms = createKms({ state: node.state, sink: node, crypto, rootIdentity: root });
    await node.propose({ kind: "createEnclave", name: "default" }, "");
    const caller = { identity: root, enclave: "default", path: "/", route: "/", params: {} };
    for (let i = 0; i < 10; i++) await kms.keys.create(caller, `key-${i}`, {});
    for (let i = 0; i < 5; i++) await kms.keys.create(caller, `key-${i}`, { addVersion: true });
    const secrets: Buffer[] = [Buffer.from(s.rootKey), Buffer.from(hsmKey)];
    for (const key of node.state().enclaves.get("default")?.keys.values() ?? []) {
      for (const v of key.versions.values()) secrets.push(Buffer.from(crypto.unseal(v.material.sealedKey)), Buffer.from(crypto.unseal(v.material.sealedHmacKey)));
    }
    assert.is(secrets.length, 2 + 15 * 2);
    await node.close();
    const files = await readdir(dir);
    assert.ok(files.includes("snapshot.bin") && files.includes("log.bin"), files.join(","));
    for (const f of files) {
      const data = await readFile(join(dir, f));
      for (const secret of secrets) {
        for (const form of [secret, Buffer.from(secret.toString("base64")), Buffer.from(secret.toString("hex"))]) {
          assert.not.ok(data.includes(form), `${f} holds key material`);
        }
      }
    }
  } finally {
    await rm(dirname(dir), { recursive: true, force: true });
  }
});

store("should take only an absent, empty or never-committed directory for a first start, and finish a committed one", async () => {
  await initCrypto();
  const parent = await mkdtemp(join(tmpdir(), "kms-create-"));
  const hsm = () => createSoftwareHsm(hsmKey);
  try {
    // Existing and empty (a mount point, say): created inside, never replaced.
    const empty = join(parent, "empty");
    await mkdir(empty);
    const a = await openLocalStore(empty, hsm());
    assert.ok(a.firstStart);
    await a.close();
    assert.equal((await readdir(empty)).sort(), ["log.bin", "root-key.json", "snapshot.bin"]);
    // A creation attempt that never committed counts for nothing.
    const attempt = join(parent, "attempt");
    await mkdir(join(attempt, ".tmp-creating-0123456789ab"), { recursive: true });
    await writeFile(join(attempt, ".tmp-creating-0123456789ab", "root-key.json"), "{half");
    const b = await openLocalStore(attempt, hsm());
    assert.ok(b.firstStart);
    await b.close();
    assert.equal((await readdir(attempt)).sort(), ["log.bin", "root-key.json", "snapshot.bin"]);
    // A committed creation stopped half-way through its move is finished, not redone.
    const staged = join(parent, "staged");
    await mkdir(join(staged, ".created"), { recursive: true });
    for (const f of ["log.bin", "snapshot.bin"]) await rename(join(empty, f), join(staged, ".created", f));
    await rename(join(empty, "root-key.json"), join(staged, "root-key.json"));
    const c = await openLocalStore(staged, hsm());
    assert.not.ok(c.firstStart);
    assert.is(c.snapshot.appliedIndex, 0n);
    await c.close();
    assert.equal((await readdir(staged)).sort(), ["log.bin", "root-key.json", "snapshot.bin"]);
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
});

function dirname(p: string): string {
  return join(p, "..");
}

store.run();
