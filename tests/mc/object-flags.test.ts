// Object flags of issue 22 against Ceph RGW, aws s3api the witness:
// cp --disable-multipart, put --if-not-exists, cat --part-number,
// head --rewind/--enc-c, pipe --enc-c/--enc-kms/--enc-s3.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { repoRoot, runMc, startMcFixture } from "./mc-runner.js";
import { startRecordingS3 } from "./recording-s3.js";

const exec = promisify(execFile);
const fx = await startMcFixture();
const { mc, work, rgw } = fx;
const rec = await startRecordingS3();

const aws = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const { stdout, stderr } = await exec("/usr/bin/aws", ["--endpoint-url", rgw.endpoint, ...args], {
      env: { ...process.env, AWS_ACCESS_KEY_ID: rgw.accessKey, AWS_SECRET_ACCESS_KEY: rgw.secretKey, AWS_DEFAULT_REGION: rgw.region },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
};
const head = async (bucket: string, key: string, ...extra: string[]): Promise<Record<string, unknown>> => {
  const r = await aws("s3api", "head-object", "--bucket", bucket, "--key", key, ...extra);
  assert.is(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
};

function payload(bytes: number, seed: number): Buffer {
  const out = Buffer.alloc(bytes);
  let x = seed;
  for (let i = 0; i + 4 <= bytes; i += 4) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out.writeUInt32LE(x, i);
  }
  return out;
}
const MiB = 1024 * 1024;
const big = payload(11 * MiB + 5, 3);
const bigFile = join(work, "big.bin");
await writeFile(bigFile, big);
const fiveMiB = { env: { MC_UPLOAD_MULTIPART_SIZE: "5MiB" } };

const flags = suite("object flags");

flags.before(async () => {
  assert.is((await mc(["mb", "rgw/flags"])).code, 0);
  assert.is((await mc(["mb", "--with-versioning", "rgw/hist"])).code, 0);
});

flags("should upload in one PUT with cp --disable-multipart :: the ETag has no part count", async () => {
  assert.is((await mc(["cp", bigFile, "rgw/flags/multi.bin"], fiveMiB)).code, 0);
  assert.match(String((await head("flags", "multi.bin"))["ETag"]), /-3"$/);
  const r = await mc(["cp", "--disable-multipart", bigFile, "rgw/flags/single.bin"], fiveMiB);
  assert.is(r.code, 0, r.stderr);
  const h = await head("flags", "single.bin");
  assert.match(String(h["ETag"]), /^"[0-9a-f]{32}"$/);
  assert.is(h["ContentLength"], big.length);
});

flags("should not overwrite with put --if-not-exists :: single and multipart", async () => {
  await writeFile(join(work, "first.txt"), "first");
  await writeFile(join(work, "second.txt"), "second");
  assert.is((await mc(["put", "--if-not-exists", join(work, "first.txt"), "rgw/flags/once.txt"])).code, 0);
  const again = await mc(["put", "--if-not-exists", join(work, "second.txt"), "rgw/flags/once.txt"]);
  assert.is(again.code, 1, again.stdout);
  assert.match(again.stderr, /PreconditionFailed|precondition/i);
  await aws("s3api", "get-object", "--bucket", "flags", "--key", "once.txt", join(work, "once-back.txt"));
  assert.is(await readFile(join(work, "once-back.txt"), "utf8"), "first");
  assert.is((await mc(["put", "-s", "5MiB", "--if-not-exists", bigFile, "rgw/flags/once-big.bin"])).code, 0);
  const bigAgain = await mc(["put", "-s", "5MiB", "--if-not-exists", join(work, "second.txt"), "rgw/flags/once-big.bin"]);
  assert.is(bigAgain.code, 1);
  const bigAgain2 = await mc(["put", "-s", "5MiB", "--if-not-exists", bigFile, "rgw/flags/once-big.bin"]);
  assert.is(bigAgain2.code, 1, "a multipart upload is refused at its completion");
  assert.is((await head("flags", "once-big.bin"))["ContentLength"], big.length);
  const uploads = await aws("s3api", "list-multipart-uploads", "--bucket", "flags");
  assert.not.match(uploads.stdout, /once-big/, "the refused upload was aborted");
  // Without the flag, put overwrites as before.
  assert.is((await mc(["put", join(work, "second.txt"), "rgw/flags/once.txt"])).code, 0);
});

flags("should print the part the server sends with cat --part-number :: a recording endpoint that knows parts", async () => {
  const part = 5 * MiB;
  rec.objects.set("bucket/parts.bin", { body: big, etag: "0123456789abcdef0123456789abcdef-3", headers: {}, modified: new Date() });
  rec.override = (r) => {
    const n = Number(r.query.get("partNumber"));
    if (r.method !== "GET" || !n) return undefined;
    const start = (n - 1) * part;
    const end = Math.min(big.length, n * part);
    return { status: 206, headers: { "content-range": `bytes ${start}-${end - 1}/${big.length}`, "x-amz-mp-parts-count": "3", "content-type": "application/octet-stream" }, body: big.subarray(start, end) };
  };
  const config = await mkdtemp(join(tmpdir(), "mc-parts-"));
  try {
    for (const n of [1, 3]) {
      const from = rec.requests.length;
      const raw = await new Promise<Buffer>((resolve, reject) => {
        const child = execFile(process.execPath, ["cli/bin/mc.js", "-C", config, "cat", "--part-number", String(n), "rec/bucket/parts.bin"], { encoding: "buffer", maxBuffer: 64 * MiB, cwd: repoRoot, env: { ...process.env, MC_HOST_rec: rec.host } }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
        child.stdin?.end();
      });
      assert.ok(raw.equals(big.subarray((n - 1) * part, Math.min(big.length, n * part))), `part ${n}`);
      assert.is(rec.requests.slice(from).find((q) => q.method === "GET")?.query.get("partNumber"), String(n));
    }
  } finally {
    rec.override = () => undefined;
    await rm(config, { recursive: true, force: true });
  }
});

flags("should refuse a part Ceph RGW answers with the whole object, and bad part numbers", async () => {
  // RGW ignores partNumber (aws s3api get-object --part-number 2 gets all 11 MiB too).
  const r = await mc(["cat", "--part-number", "2", "rgw/flags/multi.bin"]);
  assert.is(r.code, 1);
  assert.is(r.stdout, "");
  assert.match(r.stderr, /^mc: <ERROR> Unable to read from `rgw\/flags\/multi\.bin`\. Unable to read part 2 of `multi\.bin`: the server ignored the part number and sent the whole object\./);
  // Part 1 of an object written in one piece is the object.
  const one = await mc(["cat", "--part-number", "1", "rgw/flags/once.txt"]);
  assert.is(one.code, 0, one.stderr);
  assert.is(one.stdout, "second");
  for (const bad of ["0", "x", "10001"]) {
    const b = await mc(["cat", "--part-number", bad, "rgw/flags/multi.bin"]);
    assert.is(b.code, 1);
    assert.match(b.stderr, new RegExp(`^mc: <ERROR> Invalid command usage, invalid --part-number \`${bad}\`; parts are numbered 1 to 10000\\.`));
  }
  const both = await mc(["cat", "--part-number", "1", "--offset", "3", "rgw/flags/multi.bin"]);
  assert.match(both.stderr, /--part-number cannot be used with --offset or --tail/);
});

flags("should show the lines of the past with head --rewind", async () => {
  assert.is((await mc(["pipe", "rgw/hist/log.txt"], { input: "old 1\nold 2\nold 3\n" })).code, 0);
  const between = new Date();
  await new Promise((resolve) => setTimeout(resolve, 1100));
  assert.is((await mc(["pipe", "rgw/hist/log.txt"], { input: "new 1\nnew 2\n" })).code, 0);
  const r = await mc(["head", "-n", "2", "--rewind", between.toISOString(), "rgw/hist/log.txt"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "old 1\nold 2\n");
  assert.is((await mc(["head", "-n", "1", "rgw/hist/log.txt"])).stdout, "new 1\n");
  const both = await mc(["head", "--rewind", "1h", "--vid", "x", "rgw/hist/log.txt"]);
  assert.is(both.code, 1);
});

// A 32-character key: aws-cli takes it as text, mc as its base64.
const sseKey = "0123456789abcdef0123456789abcdef";
const sseKeyB64 = Buffer.from(sseKey).toString("base64");

flags("should read an SSE-C object with head --enc-c, and write one with pipe --enc-c :: aws with the key", async () => {
  const pipe = await mc(["pipe", "--enc-c", `rgw/flags/sec/=${sseKeyB64}`, "rgw/flags/sec/notes.txt"], { input: "line a\nline b\nline c\n" });
  assert.is(pipe.code, 0, pipe.stderr);
  const plain = await aws("s3api", "head-object", "--bucket", "flags", "--key", "sec/notes.txt");
  assert.is.not(plain.code, 0, "RGW wants the key");
  const h = await head("flags", "sec/notes.txt", "--sse-customer-algorithm", "AES256", "--sse-customer-key", sseKey);
  assert.is(h["SSECustomerAlgorithm"], "AES256");
  const r = await mc(["head", "-n", "2", "--enc-c", `rgw/flags/sec/=${sseKeyB64}`, "rgw/flags/sec/notes.txt"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "line a\nline b\n");
  const without = await mc(["head", "rgw/flags/sec/notes.txt"]);
  assert.is(without.code, 1);
  assert.match(without.stderr, /customer key \(SSE-C\)/);
});

flags("should write SSE-KMS with pipe --enc-kms :: aws head-object", async () => {
  const r = await mc(["pipe", "--enc-kms", "rgw/flags/k/=testkey-1", "rgw/flags/k/doc.txt"], { input: "kms" });
  assert.is(r.code, 0, r.stderr);
  const h = await head("flags", "k/doc.txt");
  assert.is(h["ServerSideEncryption"], "aws:kms");
  assert.is(h["SSEKMSKeyId"], "testkey-1");
  const bad = await mc(["pipe", "--enc-kms", "nonsense", "rgw/flags/k/x.txt"], { input: "x" });
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /^mc: <ERROR> Invalid command usage, --enc-kms/);
});

flags("should ask for SSE-S3 with pipe --enc-s3 :: the header at a recording endpoint", async () => {
  const config = await mkdtemp(join(fx.work, "pipe-s3-"));
  const from = rec.requests.length;
  const r = await runMc(["-C", config, "pipe", "--enc-s3", "rec/bucket/enc", "rec/bucket/enc/a.txt"], { input: "s3", env: { MC_HOST_rec: rec.host } });
  assert.is(r.code, 0, r.stderr);
  const put = rec.requests.slice(from).find((q) => q.method === "PUT");
  assert.is(put?.headers["x-amz-server-side-encryption"], "AES256");
});

flags.after(async () => {
  await rec.close();
  await fx.stop();
});

flags.run();
