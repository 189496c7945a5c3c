// Multipart uploads keep their integrity without an MD5 of every part
// (issue 21: MD5 was the largest CPU cost of an upload). Over plain HTTP each
// part's SHA-256 is signed and Ceph RGW checks it, so a byte flipped on the
// way (a proxy between mc and RGW) fails the upload in one line and leaves no
// object and no incomplete upload: witnessed by aws s3api. A server that
// insists on Content-MD5 gets it (a recording endpoint that refuses parts
// without it).
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, truncate, writeFile } from "node:fs/promises";
import { createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "./mc-runner.js";
import { startRecordingS3 } from "./recording-s3.js";

const exec = promisify(execFile);
const fx = await startMcFixture();
const { mc, work, rgw } = fx;
const mib = 1024 * 1024;
// Two parts of 5 MiB (the smallest part size) and a tail.
const body = randomBytes(11 * mib);
const file = join(work, "big.bin");
await writeFile(file, body);
const multipartEtag = (data: Buffer, part: number): string => {
  const digests: Buffer[] = [];
  for (let at = 0; at < data.length; at += part) digests.push(createHash("md5").update(data.subarray(at, at + part)).digest());
  return `${createHash("md5").update(Buffer.concat(digests)).digest("hex")}-${digests.length}`;
};
const aws = async (...args: string[]): Promise<{ code: number; stdout: string }> => {
  try {
    const { stdout } = await exec("/usr/bin/aws", ["--endpoint-url", rgw.endpoint, ...args], {
      env: { ...process.env, AWS_ACCESS_KEY_ID: rgw.accessKey, AWS_SECRET_ACCESS_KEY: rgw.secretKey, AWS_DEFAULT_REGION: rgw.region },
    });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? "" };
  }
};

/** A proxy in front of RGW that records each part's headers, flips one byte of part `flipPart` (0: none) and holds parts until `hold` settles. */
async function startProxy(): Promise<{ url: string; flipPart: number; hold: Promise<void>; parts: IncomingHttpHeaders[]; close: () => Promise<void> }> {
  const target = new URL(rgw.endpoint);
  const state = { url: "", flipPart: 0, hold: Promise.resolve(), parts: [] as IncomingHttpHeaders[], close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const data = Buffer.concat(chunks);
      const part = Number(new URL(req.url ?? "/", "http://x").searchParams.get("partNumber") ?? 0);
      if (req.method === "PUT" && part > 0) {
        state.parts.push(req.headers);
        if (part === state.flipPart) data[1000] = (data[1000] ?? 0) ^ 0x01;
        await state.hold;
      }
      const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      out.on("error", () => res.destroy());
      out.end(data);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

const proxy = await startProxy();
const viaProxy = { env: { MC_HOST_flip: proxy.url.replace("://", `://${rgw.accessKey}:${rgw.secretKey}@`), MC_UPLOAD_MULTIPART_SIZE: "5MiB" } };

// ---

const rgwSuite = suite("multipart upload integrity against RGW");

rgwSuite.before(async () => {
  assert.is((await mc(["mb", "rgw/integrity"])).code, 0);
});

rgwSuite("should upload intact parts with signed SHA-256s and no MD5 of ours :: aws s3api", async () => {
  proxy.parts.length = 0;
  const r = await mc(["cp", file, "flip/integrity/whole.bin"], viaProxy);
  assert.is(r.code, 0, r.stderr);
  assert.is(proxy.parts.length, 3);
  for (const h of proxy.parts) {
    assert.is(h["content-md5"], undefined, "no Content-MD5 over HTTP");
    assert.match(String(h["x-amz-content-sha256"]), /^[0-9a-f]{64}$/, "the payload's SHA-256 is signed");
  }
  const head = await aws("s3api", "head-object", "--bucket", "integrity", "--key", "whole.bin");
  assert.is(head.code, 0);
  assert.is((JSON.parse(head.stdout) as { ETag: string }).ETag, `"${multipartEtag(body, 5 * mib)}"`);
});

rgwSuite("should fail on a byte flipped in transit, leaving no object and no upload :: aws s3api", async () => {
  proxy.flipPart = 2;
  try {
    const r = await mc(["cp", file, "flip/integrity/damaged.bin"], viaProxy);
    const json = await mc(["cp", "--json", file, "flip/integrity/damaged.bin"], viaProxy);
    // Scripts get the server's code.
    assert.match(json.stdout, /"Code":"XAmzContentSHA256Mismatch"/, json.stdout);
    assert.is(r.code, 1, r.stdout);
    assert.is(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, /^mc: <ERROR> Failed to copy `.*big\.bin`\. The data the server received does not match the SHA-256 signed for it/, r.stderr);
  } finally {
    proxy.flipPart = 0;
  }
  assert.is((await aws("s3api", "head-object", "--bucket", "integrity", "--key", "damaged.bin")).code === 0, false, "no object under the final name");
  const uploads = await aws("s3api", "list-multipart-uploads", "--bucket", "integrity");
  assert.is(uploads.code, 0);
  assert.not.match(uploads.stdout, /damaged\.bin/, "the upload was aborted");
});

rgwSuite("should refuse a file truncated while it is uploaded, leaving no object and no upload :: aws s3api", async () => {
  // More than mc reads ahead (four 5 MiB parts in flight and one filling), so it is still reading when the file shrinks.
  const shrinking = join(work, "shrinking.bin");
  await writeFile(shrinking, randomBytes(48 * mib));
  proxy.parts.length = 0;
  let release = (): void => undefined;
  proxy.hold = new Promise<void>((resolve) => (release = resolve));
  try {
    const run = mc(["cp", shrinking, "flip/integrity/shrunk.bin"], viaProxy);
    while (proxy.parts.length === 0) await new Promise((r) => setTimeout(r, 50));
    await truncate(shrinking, 7 * mib);
    release();
    const r = await run;
    // Before, the parts read until the new end were completed into a 25 MiB object, and then the copy was called failed.
    assert.equal([r.code, r.stderr.trim().split("\n").length], [1, 1], r.stderr);
    assert.match(r.stderr, /^mc: <ERROR> Failed to copy `.*shrinking\.bin`\. `.*shrinking\.bin` changed size while it was being copied \(\d+ of 50331648 bytes read\); nothing was written\. Run the command again\.$/m);
  } finally {
    release();
    proxy.hold = Promise.resolve();
  }
  assert.is((await aws("s3api", "head-object", "--bucket", "integrity", "--key", "shrunk.bin")).code === 0, false, "no object under the final name");
  assert.not.match((await aws("s3api", "list-multipart-uploads", "--bucket", "integrity")).stdout, /shrunk\.bin/, "the upload was aborted");
});

rgwSuite("should upload what upstream's od does: size= per part, parts= of them, skip= parts passed over :: aws s3api", async () => {
  const get = async (key: string): Promise<Buffer> => {
    const out = join(work, `${key}.back`);
    assert.is((await aws("s3api", "get-object", "--bucket", "integrity", "--key", key, out)).code, 0, key);
    return readFile(out);
  };
  // The command of upstream's help: 2 parts of 5 MiB from /dev/zero make 10 MiB (before: 5 MiB, `size=` read as the total).
  const zero = await mc(["od", "if=/dev/zero", "of=rgw/integrity/zero.bin", "size=5MiB", "parts=2"]);
  assert.equal([zero.code, zero.stderr], [0, ""]);
  assert.match(zero.stdout, /^Transferred: 10 MiB, Parts: 2, Time: /);
  assert.ok((await get("zero.bin")).equals(Buffer.alloc(10 * mib)), "ten MiB of zeros");
  // Two parts of 2 MiB from the second part on: bytes 2-6 MiB of the file.
  const part = jsonLines((await mc(["od", "--json", `if=${file}`, "of=rgw/integrity/part.bin", "size=2MiB", "parts=2", "skip=1"])).stdout)[0];
  assert.equal([part?.["totalSize"], part?.["partSize"], part?.["parts"], part?.["skip"]], [4 * mib, 2 * mib, 2, 1]);
  assert.ok((await get("part.bin")).equals(body.subarray(2 * mib, 6 * mib)), "the bytes from 2 to 6 MiB");
  // Without size=, parts= splits the whole file.
  const whole = jsonLines((await mc(["od", "--json", `if=${file}`, "of=rgw/integrity/whole-od.bin", "parts=3"])).stdout)[0];
  assert.equal([whole?.["totalSize"], whole?.["parts"]], [11 * mib, 3]);
  assert.ok((await get("whole-od.bin")).equals(body));
});

rgwSuite("should refuse an od source that ends early, leaving no object and no upload :: aws s3api", async () => {
  // A FIFO that gives 6 MiB and closes, for 3 parts of 5 MiB.
  const fifo = join(work, "od.fifo");
  await exec("mkfifo", [fifo]);
  // Bounded: an mc that never opened the FIFO would leave the writer blocked in open().
  const writer = exec("sh", ["-c", `head -c ${6 * mib} /dev/zero > '${fifo}'`], { timeout: 60_000 });
  const r = await mc(["od", `if=${fifo}`, "of=rgw/integrity/short.bin", "size=5MiB", "parts=3"]);
  await writer;
  // Before, the 6 MiB became the object and od reported 15 MiB transferred.
  assert.equal([r.code, r.stdout], [1, ""]);
  assert.match(r.stderr, /^mc: <ERROR> .*`[^`]*od\.fifo` ended after 6291456 of 15728640 bytes; nothing was written\.\n$/, r.stderr);
  assert.is((await aws("s3api", "head-object", "--bucket", "integrity", "--key", "short.bin")).code === 0, false, "no object under the final name");
  assert.not.match((await aws("s3api", "list-multipart-uploads", "--bucket", "integrity")).stdout, /short\.bin/, "the upload was aborted");
  // A local target: no file under the name either.
  const again = exec("sh", ["-c", `head -c 100 /dev/zero > '${fifo}'`], { timeout: 60_000 });
  const local = await mc(["od", `if=${fifo}`, `of=${join(work, "short.bin")}`, "size=1KiB", "parts=1"]);
  await again;
  assert.is(local.code, 1, local.stderr);
  assert.not.ok(existsSync(join(work, "short.bin")), "no local file");
});

rgwSuite.after(async () => {
  await proxy.close();
});

rgwSuite.run();

// ---

const demand = suite("a server that requires Content-MD5 on parts");

demand("should send Content-MD5 from the refused part on and upload the object intact :: recording endpoint", async () => {
  const rec = await startRecordingS3();
  try {
    rec.override = (r) =>
      r.method === "PUT" && r.query.has("partNumber") && r.headers["content-md5"] === undefined
        ? { status: 400, headers: { "content-type": "application/xml" }, body: "<Error><Code>InvalidRequest</Code><Message>Missing required header for this request: Content-MD5</Message></Error>" }
        : undefined;
    const r = await mc(["cp", file, "rec/bkt/md5.bin"], { env: { MC_HOST_rec: rec.host, MC_UPLOAD_MULTIPART_SIZE: "5MiB" } });
    assert.is(r.code, 0, r.stderr);
    assert.ok(rec.objects.get("bkt/md5.bin")?.body.equals(body), "the object is the file");
    const parts = rec.requests.filter((q) => q.method === "PUT" && q.query.has("partNumber"));
    const accepted = parts.filter((q) => q.headers["content-md5"] !== undefined);
    assert.is(accepted.length, 3);
    for (const q of accepted) assert.is(q.headers["content-md5"], createHash("md5").update(q.body).digest("base64"));
  } finally {
    await rec.close();
  }
});

demand.after(async () => {
  await fx.stop();
});

demand.run();
