// `--checksum` on cp, mv, put, pipe and mirror (issue 22): the x-amz-checksum-*
// header mc sends must equal the digest an independent tool computes for the
// same bytes (openssl for SHA, Go's hash/crc32 and hash/crc64 for the CRCs),
// checked at a recording endpoint; downloads are checked against a checksum
// the server returns. Ceph RGW accepts the header; aws s3api is the witness
// that the data arrived whole.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { repoRoot, runMc, startMcFixture, type RunOptions } from "./mc-runner.js";
import { startRecordingS3, type Recorded } from "./recording-s3.js";

const exec = promisify(execFile);
const fx = await startMcFixture();
const { work } = fx;
const rec = await startRecordingS3();
const config = await mkdtemp(join(fx.work, "config-"));
const mc = (args: readonly string[], options: RunOptions = {}): ReturnType<typeof runMc> =>
  runMc(["-C", config, ...args], { ...options, env: { MC_HOST_rec: rec.host, MC_HOST_rgw: fx.rgw.endpoint.replace("http://", `http://${fx.rgw.accessKey}:${fx.rgw.secretKey}@`), ...options.env } });

// The CRC reference, built once from the Go standard library.
const crcRef = join(work, "crc-reference");
await exec("go", ["build", "-o", crcRef, join(repoRoot, "tests", "mc", "crc-reference.go")], {
  env: { ...process.env, GO111MODULE: "off", GOCACHE: join(work, "gocache"), CGO_ENABLED: "0" },
});

/** The checksum of a file (or a slice of it) as S3 writes it, by a tool that is not mc. */
async function reference(algorithm: string, file: string, offset?: number, length?: number): Promise<string> {
  if (algorithm.startsWith("SHA")) {
    const data = await readFile(file);
    const slice = offset === undefined ? file : join(work, `slice-${offset}`);
    if (offset !== undefined) await writeFile(slice, data.subarray(offset, offset + (length ?? 0)));
    const { stdout } = await exec("openssl", ["dgst", `-${algorithm.toLowerCase()}`, "-binary", slice], { encoding: "buffer" });
    return stdout.toString("base64");
  }
  const args = offset === undefined ? [algorithm, file] : [algorithm, file, String(offset), String(length)];
  return (await exec(crcRef, args)).stdout.trim();
}

/** Not periodic, so a misplaced byte changes every digest. */
function payload(bytes: number, seed: number): Buffer {
  const out = Buffer.alloc(bytes);
  let x = seed;
  for (let i = 0; i + 4 <= bytes; i += 4) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out.writeUInt32LE(x, i);
  }
  return out;
}

const since = (n: number): Recorded[] => rec.requests.slice(n);
const puts = (rs: Recorded[]): Recorded[] => rs.filter((r) => r.method === "PUT");
const algorithms = ["CRC32", "CRC32C", "SHA1", "SHA256", "CRC64NVME"];
const small = join(work, "small file.bin");
await writeFile(small, payload(70_001, 7));

// ---

const upload = suite("--checksum on uploads");

for (const algorithm of algorithms) {
  upload(`should send the ${algorithm} of the bytes :: cp`, async () => {
    const from = rec.requests.length;
    const r = await mc(["cp", "--checksum", algorithm.toLowerCase(), small, `rec/bucket/cp-${algorithm}.bin`]);
    assert.is(r.code, 0, r.stderr);
    const [put] = puts(since(from));
    assert.ok(put, "no PUT reached the endpoint");
    assert.is(put.headers[`x-amz-checksum-${algorithm.toLowerCase()}`], await reference(algorithm, small));
  });
}

upload("should send the checksum from put, mv, pipe and mirror", async () => {
  const cases: Array<[string, string[], string | undefined]> = [
    ["CRC32C", ["put", "--checksum", "CRC32C", small, "rec/bucket/put.bin"], undefined],
    ["SHA1", ["mv", "--checksum", "SHA1", join(work, "mv.bin"), "rec/bucket/mv.bin"], undefined],
    ["SHA256", ["pipe", "--checksum", "SHA256", "rec/bucket/pipe.bin"], small],
    ["CRC64NVME", ["mirror", "--checksum", "CRC64NVME", join(work, "tree"), "rec/bucket/tree"], undefined],
  ];
  await writeFile(join(work, "mv.bin"), await readFile(small));
  await mkdir(join(work, "tree"), { recursive: true });
  await writeFile(join(work, "tree", "a.bin"), await readFile(small));
  for (const [algorithm, args, stdin] of cases) {
    const from = rec.requests.length;
    const r = await mc(args, stdin ? { input: await readFile(stdin) } : {});
    assert.is(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
    const [put] = puts(since(from));
    assert.is(put?.headers[`x-amz-checksum-${algorithm.toLowerCase()}`], await reference(algorithm, small), args[0]);
  }
  assert.not.ok(existsSync(join(work, "mv.bin")), "mv left its source");
});

upload("should send each part's checksum and list them in CompleteMultipartUpload", async () => {
  const big = join(work, "big.bin");
  await writeFile(big, payload(11 * 1024 * 1024 + 3, 11));
  const part = 5 * 1024 * 1024;
  for (const algorithm of ["CRC32C", "CRC64NVME"]) {
    const from = rec.requests.length;
    const r = await mc(["cp", "--checksum", algorithm, big, `rec/bucket/big-${algorithm}.bin`], { env: { MC_UPLOAD_MULTIPART_SIZE: "5MiB" } });
    assert.is(r.code, 0, r.stderr);
    const seen = since(from);
    const create = seen.find((q) => q.method === "POST" && q.query.has("uploads"));
    assert.is(create?.headers["x-amz-checksum-algorithm"], algorithm);
    const parts = puts(seen).sort((a, b) => Number(a.query.get("partNumber")) - Number(b.query.get("partNumber")));
    assert.is(parts.length, 3);
    const header = `x-amz-checksum-${algorithm.toLowerCase()}`;
    const expected = [await reference(algorithm, big, 0, part), await reference(algorithm, big, part, part), await reference(algorithm, big, 2 * part, 1024 * 1024 + 3)];
    assert.equal(parts.map((p) => p.headers[header]), expected);
    const complete = seen.find((q) => q.method === "POST" && q.query.has("uploadId"));
    const listed = [...(complete?.body.toString() ?? "").matchAll(new RegExp(`<Checksum${algorithm}>([^<]*)</Checksum${algorithm}>`, "g"))].map((m) => m[1]);
    assert.equal(listed, expected);
    // CRC-64/NVME is a full-object checksum: the whole object's value goes with the completion.
    if (algorithm === "CRC64NVME") {
      assert.is(create?.headers["x-amz-checksum-type"], "FULL_OBJECT");
      assert.is(complete?.headers[header], await reference(algorithm, big));
    }
  }
});

upload("should refuse an unknown algorithm before sending anything", async () => {
  const from = rec.requests.length;
  for (const args of [["cp", "--checksum", "MD5", small, "rec/bucket/x"], ["pipe", "--checksum", "crc16", "rec/bucket/x"], ["mirror", "--checksum", "", work, "rec/bucket/y"]]) {
    const r = await mc(args);
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr.split("\n")[0] ?? "", /^mc: <ERROR> Invalid command usage, invalid --checksum `[^`]*`; use one of CRC32, CRC32C, SHA1, SHA256, CRC64NVME\.$/);
  }
  assert.is(rec.requests.length, from);
});

upload("should store the object whole on Ceph RGW :: aws s3api", async () => {
  assert.is((await mc(["mb", "rgw/sums"])).code, 0);
  for (const algorithm of algorithms) {
    const r = await mc(["cp", "--checksum", algorithm, small, `rgw/sums/${algorithm}.bin`]);
    assert.is(r.code, 0, r.stderr);
    const out = join(work, `back-${algorithm}.bin`);
    await aws("s3api", "get-object", "--bucket", "sums", "--key", `${algorithm}.bin`, out);
    assert.ok((await readFile(out)).equals(await readFile(small)), algorithm);
  }
});

// ---

const download = suite("downloads check a checksum the server returns");

download("should accept the right checksum and show it in stat", async () => {
  rec.objects.set("bucket/served.bin", { body: await readFile(small), etag: "not-an-md5", headers: {}, modified: new Date() });
  const good = await reference("CRC32C", small);
  rec.answerHeaders = (path) => (path === "bucket/served.bin" ? { "x-amz-checksum-crc32c": good } : {});
  const out = join(work, "dl", "served.bin");
  const r = await mc(["cp", "rec/bucket/served.bin", out]);
  assert.is(r.code, 0, r.stderr);
  assert.ok((await readFile(out)).equals(await readFile(small)));
  const get = rec.requests.filter((q) => q.method === "GET" && q.path === "/bucket/served.bin").at(-1);
  assert.is(get?.headers["x-amz-checksum-mode"], "ENABLED");
  const stat = await mc(["stat", "rec/bucket/served.bin"]);
  assert.match(stat.stdout, `Checksum  : CRC32C:${good}\n`);
});

download("should refuse a file whose bytes do not match, leaving nothing under its name", async () => {
  rec.objects.set("bucket/bad.bin", { body: await readFile(small), etag: "not-an-md5", headers: {}, modified: new Date() });
  rec.answerHeaders = (path) => (path === "bucket/bad.bin" ? { "x-amz-checksum-sha256": Buffer.alloc(32, 1).toString("base64") } : {});
  const dir = join(work, "dl-bad");
  await mkdir(dir, { recursive: true });
  const r = await mc(["cp", "rec/bucket/bad.bin", join(dir, "bad.bin")]);
  assert.is(r.code, 1, r.stderr);
  assert.match(r.stderr, /^mc: <ERROR> Failed to copy `rec\/bucket\/bad\.bin`\. Integrity check failed for `bad\.bin`: the SHA256 checksum of the data, \S+, does not match AQEB\S+ sent by the server\./m, r.stderr);
  assert.equal(await readdir(dir), []);
  const cat = await mc(["cat", "rec/bucket/bad.bin"]);
  assert.is(cat.code, 1);
  assert.match(cat.stderr, /Integrity check failed/);
});

download.after(async () => {
  await rec.close();
  await fx.stop();
});

const aws = (...args: string[]): Promise<{ stdout: string }> =>
  exec("/usr/bin/aws", ["--endpoint-url", fx.rgw.endpoint, ...args], {
    env: { ...process.env, AWS_ACCESS_KEY_ID: fx.rgw.accessKey, AWS_SECRET_ACCESS_KEY: fx.rgw.secretKey, AWS_DEFAULT_REGION: fx.rgw.region, AWS_REQUEST_CHECKSUM_CALCULATION: "when_required", AWS_RESPONSE_CHECKSUM_VALIDATION: "when_required" },
  });

upload.run();
download.run();
