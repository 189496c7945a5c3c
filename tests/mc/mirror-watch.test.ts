// mirror --watch copies a file created after it started within 2 seconds.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "minio";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitFor } from "../harness/wait-for.js";
import { spawnMc, startMcFixture } from "./mc-runner.js";

const fx = await startMcFixture();
const { mc, work, rgw } = fx;
const url = new URL(rgw.endpoint);
const s3 = new Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey: rgw.accessKey, secretKey: rgw.secretKey, pathStyle: true, region: "us-east-1" });
const exists = (bucket: string, key: string): Promise<boolean> => s3.statObject(bucket, key).then(() => true, () => false);

// ---

const watch = suite("mirror --watch");

watch("should copy a new local file to the bucket within 2 s", async () => {
  assert.is((await mc(["mb", "rgw/watched"])).code, 0);
  const src = join(work, "watch-src");
  await mkdir(src);
  await writeFile(join(src, "before.txt"), "before");
  const child = spawnMc(["-C", fx.configDir, "mirror", "--watch", "--json", src, "rgw/watched/w"]);
  let out = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.resume();
  try {
    await waitFor(() => out.includes("before.txt"), { what: "the initial mirror pass", timeoutMs: 15000 });
    const started = Date.now();
    await writeFile(join(src, "after.txt"), "after");
    await waitFor(() => exists("watched", "w/after.txt"), { what: "after.txt in the bucket", timeoutMs: 5000 });
    const took = Date.now() - started;
    assert.ok(took < 2000, `took ${took} ms`);
    await waitFor(() => out.includes("s3:ObjectCreated:Put"), { what: "a watch event line", timeoutMs: 5000 });
  } finally {
    const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGINT");
    assert.is(await exited, 130);
  }
});

watch("should copy a new object from the bucket to a folder within 2 s", async () => {
  const dst = join(work, "watch-dst");
  const child = spawnMc(["-C", fx.configDir, "mirror", "-w", "rgw/watched/w", dst]);
  let out = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.resume();
  try {
    await waitFor(() => out.includes("after.txt"), { what: "the initial mirror pass", timeoutMs: 15000 });
    const started = Date.now();
    await s3.putObject("watched", "w/later.txt", Buffer.from("later"));
    await waitFor(() => out.includes("later.txt"), { what: "later.txt mirrored", timeoutMs: 5000 });
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  } finally {
    const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGINT");
    await exited;
  }
});

watch.after(async () => {
  await fx.stop();
});

watch.run();
