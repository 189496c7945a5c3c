// Big downloads come as parallel ranged GETs, against Ceph RGW: the bytes are
// judged by sha256sum against what aws-cli uploaded, and every range must come
// from the object that was listed (If-Match), so one overwritten meanwhile
// fails the copy instead of leaving a file that mixes two objects.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdir, open, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createLocalStore } from "../../cli/src/storage/local/local-store.js";
import { createS3Client } from "../../cli/src/storage/s3/s3-client.js";
import { createS3Store } from "../../cli/src/storage/s3/s3-store.js";
import { copyOne } from "../../cli/src/transfer/copy.js";
import { startMcFixture } from "./mc-runner.js";
import { startRecordingS3 } from "./recording-s3.js";
import { startRangeServer } from "./range-server.js";

const exec = promisify(execFile);
const fx = await startMcFixture({ memstoreBytes: 1024 ** 3 });
const { mc, rgw, work } = fx;
const awsEnv = { ...process.env, AWS_ACCESS_KEY_ID: rgw.accessKey, AWS_SECRET_ACCESS_KEY: rgw.secretKey, AWS_DEFAULT_REGION: rgw.region };
const aws = (...args: string[]): Promise<{ stdout: string }> => exec("/usr/bin/aws", ["--endpoint-url", rgw.endpoint, ...args], { env: awsEnv });
const sha256 = async (file: string): Promise<string> => (await exec("sha256sum", [file])).stdout.split(" ")[0] ?? "";
// Names a URL path must escape; aws-cli uploads them in 8 MiB parts (a multipart ETag: ranged download).
const key = "dir/a b+c%d é(1)!*'~.bin";
const size = 80 * 1024 * 1024;
const source = join(work, "source.bin");

const ranged = suite("ranged downloads, against Ceph RGW");

ranged.before(async () => {
  const handle = await open(source, "w");
  const block = Buffer.alloc(4 * 1024 * 1024);
  for (let written = 0; written < size; written += block.length) {
    for (let i = 0; i < block.length; i += 8) block.writeDoubleBE(written + i * 1.5, i);
    await handle.write(block);
  }
  await handle.close();
  assert.is((await mc(["mb", "rgw/ranges"])).code, 0);
  await aws("s3", "cp", "--quiet", source, `s3://ranges/${key}`);
});

ranged("should download a multipart object byte for byte, its name escaped, alone and listed :: mc cp, sha256sum", async () => {
  const etag = JSON.parse((await aws("s3api", "head-object", "--bucket", "ranges", "--key", key)).stdout) as { ETag: string };
  assert.match(etag.ETag, /-\d+"$/, "not a multipart object: the download would not be ranged");
  const target = join(work, "down.bin");
  const r = await mc(["cp", "-q", `rgw/ranges/${key}`, target]);
  assert.is(r.code, 0, r.stderr);
  assert.is(await sha256(target), await sha256(source));
  // The ETag of a listing (cp -r) is the one If-Match is sent with: it must be the GET's too.
  const tree = join(work, "tree");
  const all = await mc(["cp", "-r", "-q", "rgw/ranges/dir/", `${tree}/`]);
  assert.is(all.code, 0, all.stderr);
  assert.is(await sha256(join(tree, key.slice("dir/".length))), await sha256(source));
});

const rgwClient = () => createS3Client({ name: "rgw", url: rgw.endpoint, accessKey: rgw.accessKey, secretKey: rgw.secretKey, sessionToken: "", api: "s3v4", path: "auto", src: "test" }, { certsDir: join(work, "certs"), insecure: false });

// A signature RGW refused would only make every range fall back to the SDK's path, unseen: here each must come whole.
ranged("should read RGW's ranges of the object on a bare socket, its name escaped and signed as RGW wants", async () => {
  const src = createS3Store(rgwClient(), "rgw", "ranges", { partSize: 16 * 1024 * 1024, parallel: 4 });
  const listed = await src.stat(key);
  assert.ok(listed);
  const line = src.rangeConnector?.(key, { ifMatch: listed.etag })?.();
  assert.ok(line, "no range connection to RGW");
  const whole = await readFile(source);
  try {
    for (const offset of [0, 16 * 1024 * 1024 - 5, size - 1000]) {
      const got = Buffer.alloc(1000);
      const read = await line.read(offset, 1000, (chunk, position) => chunk.copy(got, position - offset));
      assert.ok(read, `the range at ${offset} was declined`);
      assert.ok(got.equals(whole.subarray(offset, offset + 1000)), `bytes at ${offset}`);
    }
  } finally {
    line.close();
  }
});

ranged("should fail the copy of an object overwritten after it was listed, leaving no file behind", async () => {
  const src = createS3Store(rgwClient(), "rgw", "ranges", { partSize: 16 * 1024 * 1024, parallel: 4 });
  const listed = await src.stat(key);
  assert.ok(listed);
  // Overwritten with one byte changed (a new multipart ETag) between the listing and the copy.
  const changed = join(work, "changed.bin");
  await copyFile(source, changed);
  const handle = await open(changed, "r+");
  await handle.write(Buffer.from([0xff]), 0, 1, size - 1);
  await handle.close();
  await aws("s3", "cp", "--quiet", changed, `s3://ranges/${key}`);
  const after = await src.stat(key);
  assert.ok(after && after.etag !== listed.etag, "the overwrite kept the ETag");
  const dir = join(work, "stale");
  let failed = "";
  await copyOne({ src, srcKey: key, dst: createLocalStore(), dstKey: join(dir, "stale.bin"), size: listed.size, etag: listed.etag }, new AbortController().signal).catch((err: unknown) => (failed = String(err)));
  assert.match(failed, /changed while it was being downloaded; nothing was written/);
  assert.equal(await readdir(dir).catch(() => []), []);
});

// What the person at the shell sees: a server that answers every ranged GET of the object with 412
// (it changed since it was listed) gives one line, exit 1, and no file.
ranged("should say in one line that the object changed, exit 1 and leave no file :: mc cp, a server answering 412", async () => {
  const rec = await startRecordingS3();
  try {
    rec.objects.set("bucket/big bin.bin", { body: Buffer.alloc(72 * 1024 * 1024, 7), etag: "0123456789abcdef0123456789abcdef-5", headers: {}, modified: new Date() });
    const refusal = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message></Message></Error>';
    rec.override = (r) => (r.method === "GET" && r.headers["if-match"] === '"0123456789abcdef0123456789abcdef-5"' ? { status: 412, headers: { "content-type": "application/xml" }, body: refusal } : undefined);
    const dir = join(work, "refused");
    await mkdir(dir);
    const r = await mc(["cp", "-q", "rec/bucket/big bin.bin", join(dir, "big.bin")], { env: { MC_HOST_rec: rec.host } });
    assert.is(r.code, 1, r.stderr);
    assert.match(r.stderr, /^mc: <ERROR> Failed to copy `rec\/bucket\/big bin\.bin`\. The object changed while it was being downloaded; nothing was written\. Run the command again\.$/m, r.stderr);
    assert.is(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.equal(await readdir(dir), []);
  } finally {
    await rec.close();
  }
});

// Against a loopback stand-in for RGW (range-server.ts), which tells the two paths apart.
ranged("should download through range connections, and fall back to the SDK's path for answers they decline :: mc cp, sha256sum", async () => {
  const served = Buffer.alloc(72 * 1024 * 1024);
  for (let i = 0; i < served.length; i += 4) served.writeUInt32LE((i * 40503) >>> 0, i);
  const server = await startRangeServer(served);
  try {
    const expected = createHash("sha256").update(served).digest("hex");
    const plain = join(work, "served.bin");
    const r = await mc(["cp", "-q", "srv/bucket/big.bin", plain], { env: { MC_HOST_srv: server.host } });
    assert.is(r.code, 0, r.stderr);
    assert.is(await sha256(plain), expected);
    assert.equal([server.rawGets, server.sdkGets], [5, 0], "16 MiB ranges on bare sockets");
    // A host name only --resolve knows: the bare sockets look it up the same way (else every range would fall back).
    server.rawGets = 0;
    const port = new URL(server.endpoint).port;
    const named = join(work, "served-named.bin");
    const n = await mc(["cp", "-q", "named/bucket/big.bin", named, "--resolve", `storage.mc-test.invalid:${port}=127.0.0.1`], { env: { MC_HOST_named: `http://RANGEKEY:RANGESECRET@storage.mc-test.invalid:${port}` } });
    assert.is(n.code, 0, n.stderr);
    assert.is(await sha256(named), expected);
    assert.equal([server.rawGets, server.sdkGets], [5, 0], "--resolve on bare sockets");
    // Every answer chunked: each range is declined, then read through node:http.
    server.rawGets = 0;
    server.misbehave = (asked, _req, res) => {
      res.writeHead(206, { "content-range": `bytes ${asked.start}-${asked.end}/${served.length}`, etag: `"${server.etag}"` });
      res.end(served.subarray(asked.start, asked.end + 1));
      return true;
    };
    const chunked = join(work, "served-chunked.bin");
    const c = await mc(["cp", "-q", "srv/bucket/big.bin", chunked], { env: { MC_HOST_srv: server.host } });
    assert.is(c.code, 0, c.stderr);
    assert.is(await sha256(chunked), expected);
    assert.equal([server.rawGets, server.sdkGets], [5, 5]);
  } finally {
    await server.close();
  }
});

ranged("should say in one line that a range was cut short, exit 1 and leave no file :: mc cp, a server cutting the third range", async () => {
  const server = await startRangeServer(Buffer.alloc(72 * 1024 * 1024, 3));
  server.misbehave = (asked, _req, res) => {
    if (asked.n !== 3) return false;
    res.writeHead(206, { "content-length": String(asked.end - asked.start + 1), "content-range": `bytes ${asked.start}-${asked.end}/${server.bytes.length}` });
    res.write(server.bytes.subarray(asked.start, asked.start + 5_000_000), () => res.socket?.destroy());
    return true;
  };
  try {
    const dir = join(work, "cut");
    await mkdir(dir);
    const r = await mc(["cp", "-q", "srv/bucket/big.bin", join(dir, "big.bin")], { env: { MC_HOST_srv: server.host } });
    assert.is(r.code, 1, r.stderr);
    assert.match(r.stderr, /^mc: <ERROR> Failed to copy `srv\/bucket\/big\.bin`\. The server closed the connection after \d+ of 16777216 bytes of a range\.\n$/, r.stderr);
    assert.equal(await readdir(dir), []);
  } finally {
    await server.close();
  }
});

ranged.after(() => fx.stop());
ranged.run();
