// Objects written by mc read back byte-identical by rclone and aws (Debian packages) and the other way round;
// presigned URLs from share download work with curl, and share upload gives a working curl form upload.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { cleanEnv, jsonLines, startMcFixture } from "./mc-runner.js";

const fx = await startMcFixture();
const { mc, work, rgw } = fx;
const toolHome = await mkdtemp(join(tmpdir(), "mc-interop-home-"));

function run(cmd: string, args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env: { ...cleanEnv({ HOME: toolHome }), ...env }, encoding: "buffer", maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? ((err as { code: number }).code) : 1) : 0;
      resolve({ code, stdout, stderr: stderr.toString() });
    });
  });
}

// rclone 1.60 rejects AWS_CA_BUNDLE (cleanEnv drops AWS_*); path style on RGW.
const rcloneEnv = {
  RCLONE_CONFIG_RGW_TYPE: "s3",
  RCLONE_CONFIG_RGW_PROVIDER: "Other",
  RCLONE_CONFIG_RGW_ACCESS_KEY_ID: rgw.accessKey,
  RCLONE_CONFIG_RGW_SECRET_ACCESS_KEY: rgw.secretKey,
  RCLONE_CONFIG_RGW_ENDPOINT: rgw.endpoint,
  RCLONE_CONFIG_RGW_REGION: rgw.region,
  RCLONE_CONFIG_RGW_FORCE_PATH_STYLE: "true",
};
const rclone = (...args: string[]): ReturnType<typeof run> => run("rclone", ["--config", "/dev/null", ...args], rcloneEnv);
// Debian's aws-cli explicitly: another `aws` may come first on PATH.
const aws = (...args: string[]): ReturnType<typeof run> =>
  run("/usr/bin/aws", ["--endpoint-url", rgw.endpoint, ...args], {
    AWS_ACCESS_KEY_ID: rgw.accessKey,
    AWS_SECRET_ACCESS_KEY: rgw.secretKey,
    AWS_DEFAULT_REGION: rgw.region,
    AWS_REQUEST_CHECKSUM_CALCULATION: "when_required",
    AWS_RESPONSE_CHECKSUM_VALIDATION: "when_required",
  });
const md5 = (data: Buffer): string => createHash("md5").update(data).digest("hex");

/** Not all zeros and not periodic, so a misplaced part changes the digest. */
function payload(bytes: number, seed: number): Buffer {
  const out = Buffer.alloc(bytes);
  let x = seed;
  for (let i = 0; i + 4 <= bytes; i += 4) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out.writeUInt32LE(x, i);
  }
  return out;
}

const small = payload(100_000, 1);
const multipart = payload(20 * 1024 * 1024 + 12345, 2);

// ---

const tools = suite("interoperability with rclone and aws");

tools.before(async () => {
  assert.is((await mc(["mb", "rgw/interop"])).code, 0);
  await writeFile(join(work, "small.bin"), small);
  await writeFile(join(work, "multi.bin"), multipart);
  assert.is((await mc(["cp", join(work, "small.bin"), join(work, "multi.bin"), "rgw/interop/by-mc/"])).code, 0);
});

tools("should let rclone read what mc wrote :: single part and multipart", async () => {
  const a = await rclone("cat", "rgw:interop/by-mc/small.bin");
  assert.is(a.code, 0, a.stderr);
  assert.is(md5(a.stdout), md5(small));
  const b = await rclone("cat", "rgw:interop/by-mc/multi.bin");
  assert.is(md5(b.stdout), md5(multipart));
});

tools("should let aws read what mc wrote :: single part and multipart", async () => {
  const a = await aws("s3", "cp", "s3://interop/by-mc/small.bin", "-");
  assert.is(a.code, 0, a.stderr);
  assert.is(md5(a.stdout), md5(small));
  const b = await aws("s3", "cp", "s3://interop/by-mc/multi.bin", "-");
  assert.is(md5(b.stdout), md5(multipart));
});

tools("should read what rclone and aws wrote", async () => {
  const r = await rclone("copyto", join(work, "multi.bin"), "rgw:interop/by-rclone/multi.bin");
  assert.is(r.code, 0, r.stderr);
  const a = await aws("s3", "cp", join(work, "multi.bin"), "s3://interop/by-aws/multi.bin");
  assert.is(a.code, 0, a.stderr);
  await aws("s3", "cp", join(work, "small.bin"), "s3://interop/by-aws/small.bin");
  for (const key of ["by-rclone/multi.bin", "by-aws/multi.bin"]) {
    assert.is((await mc(["cp", `rgw/interop/${key}`, join(work, "back", key)])).code, 0, key);
    assert.is(md5(await readFile(join(work, "back", key))), md5(multipart), key);
  }
  const cat = await mc(["cat", "rgw/interop/by-aws/small.bin"]);
  assert.is(Buffer.from(cat.stdout, "latin1").length > 0, true);
  assert.is((await mc(["cp", "rgw/interop/by-aws/small.bin", join(work, "back", "small.bin")])).code, 0);
  assert.is(md5(await readFile(join(work, "back", "small.bin"))), md5(small));
  const ls = jsonLines((await mc(["ls", "-r", "--json", "rgw/interop/"])).stdout).map((o) => o["key"]);
  assert.equal(ls, ["by-aws/multi.bin", "by-aws/small.bin", "by-mc/multi.bin", "by-mc/small.bin", "by-rclone/multi.bin"]);
});

tools.run();

// ---

const share = suite("share download, upload and list with curl");

share("should fetch a presigned download URL with curl :: text and json", async () => {
  const t = await mc(["share", "download", "--expire", "1h", "rgw/interop/by-mc/small.bin"]);
  assert.is(t.code, 0, t.stderr);
  const m = /^URL: (\S+)\nExpire: 0 days 1 hours 0 minutes 0 seconds\nShare: (\S+)\n$/.exec(t.stdout);
  assert.ok(m, t.stdout);
  assert.is(m?.[1], `${rgw.endpoint}/interop/by-mc/small.bin`);
  const got = await run("curl", ["-sf", m?.[2] ?? ""]);
  assert.is(got.code, 0);
  assert.is(md5(got.stdout), md5(small));
  const j = jsonLines((await mc(["share", "download", "--json", "rgw/interop/by-mc/small.bin"])).stdout)[0];
  assert.equal(Object.keys(j ?? {}), ["status", "url", "share", "timeLeft"]);
  assert.is(j?.["timeLeft"], 7 * 24 * 3600 * 1e9);
  assert.match(String(j?.["share"]), /&X-Amz-Signature=/);
});

share("should produce a working curl form upload", async () => {
  const t = await mc(["share", "upload", "--json", "rgw/interop/uploaded.txt"]);
  const cmd = String(jsonLines(t.stdout)[0]?.["share"]);
  // The form goes to the bucket's root: `/interop/`, with its slash (minio-go's POST URL).
  assert.match(cmd, /^curl http:\/\/127\.0\.0\.1:\d+\/interop\/ -F .* -F key=uploaded\.txt -F file=@<FILE>$/);
  await writeFile(join(work, "form.txt"), "sent by curl");
  const args = cmd.replace("<FILE>", join(work, "form.txt")).split(" ").slice(1);
  const posted = await run("curl", ["-sf", ...args]);
  assert.is(posted.code, 0, posted.stderr);
  assert.is((await mc(["cat", "rgw/interop/uploaded.txt"])).stdout, "sent by curl");
});

share("should print a curl command a shell runs as it is, for a key with spaces, a quote and a leading @ :: sh -c", async () => {
  for (const name of ["it's my file.txt", "@home/at.txt"]) {
    const cmd = String(jsonLines((await mc(["share", "upload", "--json", `rgw/interop/${name}`])).stdout)[0]?.["share"]);
    const file = join(work, "form body.txt");
    await writeFile(file, `sent for ${name}`);
    // Pasted into a shell, with <FILE> replaced by a quoted path (before, the space split the key and the quote broke the line).
    const posted = await run("sh", ["-c", cmd.replace("-F file=@<FILE>", `-sf -F 'file=@${file}'`)]);
    assert.is(posted.code, 0, `${cmd}\n${posted.stderr}`);
    assert.is((await mc(["cat", `rgw/interop/${name}`])).stdout, `sent for ${name}`, name);
  }
});

share("should list shares and reject bad requests", async () => {
  const list = await mc(["share", "list", "download"]);
  assert.match(list.stdout, /URL: .*small\.bin\nExpire: \d+ days/);
  const up = jsonLines((await mc(["share", "list", "upload", "--json"])).stdout);
  assert.ok(up.length >= 1);
  assert.is((await mc(["share", "download", "rgw/interop/nothing"])).code, 1);
  assert.is((await mc(["share", "download", "--expire", "200h", "rgw/interop/by-mc/small.bin"])).code, 1);
  assert.is((await mc(["share", "list", "sideways"])).code, 1);
});

share.after(async () => {
  await fx.stop();
  await rm(toolHome, { recursive: true, force: true });
});

share.run();
