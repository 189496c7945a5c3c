import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createFixture, runKms, type KmsFixture } from "./kms-harness.js";

const durability = suite<{ fx: KmsFixture | undefined }>("kms durability", { fx: undefined });
const env = { KMS_HSM_KEY: "" };

durability.before(async (ctx) => {
  ctx.fx = await createFixture();
});
durability.after(async (ctx) => {
  await ctx.fx?.cleanup();
});

async function listAll(c: Awaited<ReturnType<Awaited<ReturnType<typeof runKms>>["client"]>>): Promise<Set<string>> {
  return new Set((await c.call<{ names: string[] }>("GET", "/v1/key/list/*")).names);
}

durability("should keep all state across a restart", async ({ fx }) => {
  if (!fx) throw new Error("no fixture");
  let kms = await runKms(fx, env);
  const rootApiKey = kms.rootApiKey ?? "";
  let root = await kms.client();
  await root.call("POST", "/v1/key/create/keep", {});
  await root.call("POST", "/v1/key/create/keep", { add_version: true });
  await root.call("POST", "/v1/policy/create/pol", { allow: ["/v1/key/list/*"] });
  const g = await root.generate("keep", new Uint8Array([9]));
  root.close();
  await kms.proc.stop();
  kms = await runKms(fx, env);
  root = await kms.client(rootApiKey);
  assert.equal((await root.call<{ versions: number[] }>("GET", "/v1/key/describe/keep")).versions, [1, 2]);
  assert.is((await root.decrypt("keep", g.ciphertext, new Uint8Array([9]))).plaintext, g.plaintext);
  assert.equal((await root.call<{ allow: string[] }>("GET", "/v1/policy/read/pol")).allow, ["/v1/key/list/*"]);
  root.close();
  await kms.proc.stop();
});

durability("should lose no acknowledged creation when killed with SIGKILL mid-stream", async () => {
  // A fresh data directory, so the root API key is printed on its first start.
  const fresh = await createFixture();
  try {
    let kms = await runKms(fresh, env);
    const key = kms.rootApiKey ?? "";
    let root = await kms.client(key);
    const acked: string[] = [];
    let next = 0;
    let killed = false;
    const worker = async (): Promise<void> => {
      while (next < 500) {
        const name = `k-${next++}`;
        try {
          const res = await root.send("POST", `/v1/key/create/${name}`, {});
          if (res.status === 200) acked.push(name);
        } catch {
          return;
        }
        if (!killed && acked.length >= 200) {
          killed = true;
          await kms.proc.kill();
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    assert.ok(killed, "the server was killed during the stream");
    assert.ok(acked.length >= 200 && acked.length < 500, `acknowledged ${acked.length}`);
    root.close();
    kms = await runKms(fresh, env);
    root = await kms.client(key);
    const present = await listAll(root);
    const lost = acked.filter((n) => !present.has(n));
    assert.equal(lost, [], `acknowledged but lost after kill -9: ${lost.length}`);

    // Scan: no file of the data directory holds plaintext key material, the HSM key or names.
    const imported = Buffer.alloc(32);
    for (let i = 0; i < 32; i++) imported[i] = (i * 37 + 11) & 0xff;
    await root.call("POST", "/v1/key/import/scan-me", { key: imported.toString("base64") });
    root.close();
    await kms.proc.stop();
    const hsmBytes = Buffer.alloc(32, 5);
    const files = await readdir(fresh.dataDir);
    assert.ok(files.length >= 2, files.join(","));
    for (const f of files) {
      const data = await readFile(join(fresh.dataDir, f));
      for (const [what, needle] of [["imported key", imported], ["HSM key", hsmBytes], ["HSM key text", Buffer.from(fresh.hsmKey)], ["HSM key base64", Buffer.from(hsmBytes.toString("base64"))], ["key name", Buffer.from("scan-me")]] as const) {
        assert.not.ok(data.includes(needle), `${f} contains the ${what}`);
      }
    }
  } finally {
    await fresh.cleanup();
  }
});

durability.run();
