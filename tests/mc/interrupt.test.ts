// Ctrl-C (SIGINT) during a 200 MiB upload and download leaves nothing under the final name and no incomplete upload.
import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "minio";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitFor } from "../harness/wait-for.js";
import { jsonLines, spawnMc, startMcFixture } from "./mc-runner.js";

const fx = await startMcFixture({ memstoreBytes: 3 * 1024 ** 3 });
const { mc, work, rgw } = fx;
const url = new URL(rgw.endpoint);
const s3 = new Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey: rgw.accessKey, secretKey: rgw.secretKey, pathStyle: true, region: "us-east-1" });
const size = 200 * 1024 * 1024;
const bigFile = join(work, "big.bin");

function exitOf(child: ReturnType<typeof spawnMc>): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? -1 : null))));
}

async function incompleteUploads(): Promise<string[]> {
  const keys: string[] = [];
  for await (const up of s3.listIncompleteUploads("intr", "", true) as AsyncIterable<{ key: string }>) keys.push(up.key);
  return keys;
}

// ---

const interrupt = suite("kill -INT during 200 MiB transfers");

interrupt.before(async () => {
  const handle = await open(bigFile, "w");
  const block = Buffer.alloc(4 * 1024 * 1024);
  for (let i = 0; i < block.length; i += 8) block.writeDoubleBE(i, i);
  for (let written = 0; written < size; written += block.length) await handle.write(block);
  await handle.close();
  assert.is((await mc(["mb", "rgw/intr"])).code, 0);
});

interrupt("should abort the multipart upload and leave no object :: upload", async () => {
  const child = spawnMc(["-C", fx.configDir, "cp", bigFile, "rgw/intr/big.bin"]);
  const exited = exitOf(child);
  await waitFor(async () => (await incompleteUploads()).includes("big.bin"), { what: "a multipart upload in progress", timeoutMs: 30000 });
  child.kill("SIGINT");
  assert.is(await exited, 130);
  assert.is((await mc(["stat", "rgw/intr/big.bin"])).code, 1);
  assert.equal(await incompleteUploads(), []);
  const rm = await mc(["rm", "--incomplete", "-r", "--force", "rgw/intr/"]);
  assert.is(rm.code, 0);
  assert.is(rm.stdout, "");
});

interrupt("should remove the temporary file and leave nothing under the final name :: download", async () => {
  const up = await mc(["cp", bigFile, "rgw/intr/whole.bin"]);
  assert.is(up.code, 0, up.stderr);
  assert.is(jsonLines((await mc(["stat", "--json", "rgw/intr/whole.bin"])).stdout)[0]?.["size"], size);
  const dir = join(work, "down");
  const child = spawnMc(["-C", fx.configDir, "cp", "rgw/intr/whole.bin", `${dir}/`]);
  const exited = exitOf(child);
  await waitFor(async () => (await readdir(dir).catch(() => [] as string[])).some((n) => n.includes("mc-part")), { what: "a partial download", timeoutMs: 30000, intervalMs: 10 });
  child.kill("SIGINT");
  assert.is(await exited, 130);
  assert.equal(await readdir(dir), []);
});

interrupt.after(async () => {
  await fx.stop();
});

interrupt.run();
