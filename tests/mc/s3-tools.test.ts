// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// mc against Ceph RGW: put, pipe, od, du, diff, find, tree, mirror, ping, versions, incomplete uploads.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "minio";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { cleanEnv, jsonLines, mcBin, startMcFixture } from "./mc-runner.js";

const fx = await startMcFixture();
const { mc, work, rgw } = fx;
const url = new URL(rgw.endpoint);
const s3 = new Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey: rgw.accessKey, secretKey: rgw.secretKey, pathStyle: true, region: "us-east-1" });
const errorCode = (stdout: string): unknown => (jsonLines(stdout)[0]?.["error"] as { cause: { error: { Code: string } } } | undefined)?.cause.error.Code;

// ---

const uploads = suite("put, pipe and od against RGW");

uploads.before(async () => {
  assert.is((await mc(["mb", "rgw/upl"])).code, 0);
});

uploads("should upload multipart with put -P and -s and keep the bytes", async () => {
  const data = Buffer.alloc(11 * 1024 * 1024);
  for (let i = 0; i < data.length; i += 4096) data.writeUInt32BE(i, i);
  await writeFile(join(work, "big.bin"), data);
  const r = await mc(["put", "-P", "2", "-s", "5MiB", join(work, "big.bin"), "rgw/upl/big.bin"]);
  assert.is(r.code, 0, r.stderr);
  const stat = jsonLines((await mc(["stat", "--json", "rgw/upl/big.bin"])).stdout)[0];
  assert.match(String(stat?.["etag"]), /-3$/);
  const back = await mc(["cat", "rgw/upl/big.bin"]);
  assert.is(createHash("md5").update(back.stdout, "binary").digest("hex").length, 32);
  await mc(["get", "rgw/upl/big.bin", join(work, "big.back")]);
  assert.ok(data.equals(await readFile(join(work, "big.back"))));
});

uploads("should draw a progress bar on a terminal only, never with --quiet or --json", async () => {
  const run = (flags: string): Promise<string> =>
    new Promise((resolve) => {
      const cmd = `'${process.execPath}' '${mcBin}' -C '${fx.configDir}' cp ${flags} '${join(work, "big.bin")}' rgw/upl/tty.bin`;
      execFile("script", ["-qec", cmd, "/dev/null"], { env: cleanEnv() }, (_err, stdout) => resolve(stdout));
    });
  assert.match(await run(""), /█|░/);
  assert.not.match(await run("--quiet"), /█|░/);
  assert.not.match(await run("--json"), /█|░/);
  const piped = await mc(["cp", join(work, "big.bin"), "rgw/upl/tty.bin"]);
  assert.not.match(piped.stdout, /█|░/);
});

uploads("should honour MC_UPLOAD_MULTIPART_SIZE", async () => {
  const r = await mc(["cp", join(work, "big.bin"), "rgw/upl/env.bin"], { env: { MC_UPLOAD_MULTIPART_SIZE: "6MiB" } });
  assert.is(r.code, 0, r.stderr);
  assert.match(String(jsonLines((await mc(["stat", "--json", "rgw/upl/env.bin"])).stdout)[0]?.["etag"]), /-2$/);
});

uploads("should hold transfers to --limit-upload and MC_LIMIT_DOWNLOAD", async () => {
  await writeFile(join(work, "one-mib.bin"), Buffer.alloc(1024 * 1024, 3));
  let started = performance.now();
  assert.is((await mc(["cp", "--limit-upload", "1MiB", join(work, "one-mib.bin"), "rgw/upl/limited.bin"])).code, 0);
  assert.ok(performance.now() - started > 950, "upload was not limited");
  started = performance.now();
  const down = await mc(["cp", "rgw/upl/limited.bin", join(work, "limited.bin")], { env: { MC_LIMIT_DOWNLOAD: "1MiB" } });
  assert.is(down.code, 0, down.stderr);
  assert.ok(performance.now() - started > 950, "download was not limited");
  assert.is((await mc(["cp", "--limit-upload", "fast", join(work, "one-mib.bin"), "rgw/upl/x"])).code, 1);
});

uploads("should send --custom-header with every request", async () => {
  const r = await mc(["cp", "-H", "x-amz-meta-color:blue", join(work, "one-mib.bin"), "rgw/upl/headed.bin"]);
  assert.is(r.code, 0, r.stderr);
  const meta = jsonLines((await mc(["stat", "--json", "rgw/upl/headed.bin"])).stdout)[0]?.["metadata"] as Record<string, string>;
  assert.is(meta["X-Amz-Meta-Color"], "blue");
  assert.is((await mc(["ls", "rgw/upl", "-H", "no-colon"])).code, 1);
});

uploads("should stream stdin with pipe", async () => {
  const r = await mc(["pipe", "rgw/upl/piped.txt"], { input: "from a pipe\n" });
  assert.is(r.code, 0, r.stderr);
  assert.is((await mc(["cat", "rgw/upl/piped.txt"])).stdout, "from a pipe\n");
});

uploads("should measure an upload with od :: text and json", async () => {
  // Generated data (no if=): size= per part, as upstream's od reads it.
  const t = await mc(["od", "of=rgw/upl/od.bin", "size=6MiB", "parts=2"]);
  assert.is(t.code, 0, t.stderr);
  assert.match(t.stdout, /^Transferred: 12 MiB, Parts: 2, Time: [\d.]+s, Speed: .+\/s\n$/);
  const j = jsonLines((await mc(["od", "--json", `if=${join(work, "big.bin")}`, "of=rgw/upl/od2.bin"])).stdout)[0];
  assert.equal(Object.keys(j ?? {}), ["status", "type", "source", "target", "partSize", "totalSize", "parts", "skip", "elapsed"]);
  assert.is(j?.["type"], "FStoS3");
  assert.is(j?.["totalSize"], 11 * 1024 * 1024);
});

uploads("should reject put to a local target and bad operands", async () => {
  assert.is((await mc(["put", join(work, "big.bin"), join(work, "x")])).code, 1);
  assert.is((await mc(["od", "of=rgw/upl/x", "bogus=1"])).code, 1);
});

uploads.run();

// ---

const listing = suite("du, diff, find and tree against RGW");

listing.before(async () => {
  const dir = join(work, "set");
  await mkdir(join(dir, "docs", "old"), { recursive: true });
  await writeFile(join(dir, "readme.md"), "# readme\n");
  await writeFile(join(dir, "docs", "a.txt"), "a".repeat(2000));
  await writeFile(join(dir, "docs", "b.txt"), "b".repeat(10));
  await writeFile(join(dir, "docs", "old", "c.log"), "c");
  assert.is((await mc(["mb", "rgw/lst"])).code, 0);
  assert.is((await mc(["cp", "-r", `${dir}/`, "rgw/lst/set/"])).code, 0);
});

listing("should sum sizes with du and --depth :: text and json", async () => {
  const t = await mc(["du", "rgw/lst/set"]);
  assert.is(t.stdout, "2.0KiB\t4 objects\tlst/set\n");
  const d = await mc(["du", "--depth", "1", "rgw/lst/set/"]);
  assert.is(d.stdout, "2.0KiB\t3 objects\tlst/set/docs\n2.0KiB\t4 objects\tlst/set\n");
  const j = jsonLines((await mc(["du", "--json", "rgw/lst/set"])).stdout)[0];
  assert.equal(j, { prefix: "lst/set", size: 2020, objects: 4, status: "success", isVersions: false });
});

listing("should list differences by presence and size :: exit 0", async () => {
  await writeFile(join(work, "set", "docs", "b.txt"), "changed size");
  await writeFile(join(work, "set", "local-only.txt"), "x");
  await mc(["cp", join(work, "set", "readme.md"), "rgw/lst/set/remote-only.md"]);
  const t = await mc(["diff", join(work, "set"), "rgw/lst/set"]);
  assert.is(t.code, 0);
  assert.is(t.stdout, `! rgw/lst/set/docs/b.txt\n< ${join(work, "set", "local-only.txt")}\n> rgw/lst/set/remote-only.md\n`);
  const j = jsonLines((await mc(["diff", "--json", join(work, "set"), "rgw/lst/set"])).stdout);
  assert.equal(j.map((o) => o["diff"]), [2, 5, 6]);
  assert.equal(Object.keys(j[0] ?? {}), ["status", "first", "second", "diff"]);
});

listing("should find by name, path, size, depth and age", async () => {
  const names = async (...flags: string[]): Promise<string[]> => (await mc(["find", "rgw/lst/set", ...flags])).stdout.split("\n").filter(Boolean);
  assert.equal(await names("--name", "*.txt"), ["rgw/lst/set/docs/a.txt", "rgw/lst/set/docs/b.txt"]);
  assert.equal(await names("--name", "old"), ["rgw/lst/set/docs/old/c.log"]);
  assert.equal(await names("--path", "docs/*.log"), ["rgw/lst/set/docs/old/c.log"]);
  assert.equal(await names("--larger", "1k"), ["rgw/lst/set/docs/a.txt"]);
  assert.equal(await names("--smaller", "2"), ["rgw/lst/set/docs/old/c.log"]);
  assert.equal(await names("--maxdepth", "1"), ["rgw/lst/set/readme.md", "rgw/lst/set/remote-only.md"]);
  assert.equal(await names("--older-than", "1d"), []);
  assert.is((await names("--newer-than", "1d")).length, 5);
  assert.equal(await names("--name", "*.md", "--ignore", "remote*"), ["rgw/lst/set/readme.md"]);
});

listing("should print formats, json and run --exec", async () => {
  const p = await mc(["find", "rgw/lst/set/docs", "--name", "*.txt", "--print", "{base}:{size}"]);
  assert.is(p.stdout, "a.txt:2000\nb.txt:10\n");
  const j = jsonLines((await mc(["find", "rgw/lst/set/docs", "--json", "--name", "a.txt"])).stdout)[0];
  assert.equal(Object.keys(j ?? {}), ["status", "type", "lastModified", "size", "key", "etag"]);
  assert.is(j?.["key"], "rgw/lst/set/docs/a.txt");
  const e = await mc(["find", "rgw/lst/set/docs/old", "--exec", "echo found {base}"]);
  assert.is(e.stdout, "found c.log\n");
  const failing = await mc(["find", "rgw/lst/set/docs/old", "--exec", "ls /nonexistent/{base}"]);
  assert.is(failing.code, 2);
  const url = await mc(["find", "rgw/lst/set/docs/old", "--print", "{url}"]);
  assert.match(url.stdout, /X-Amz-Signature=/);
});

listing("should draw a tree :: -f and -d", async () => {
  const dirs = await mc(["tree", "rgw/lst/set"]);
  assert.is(dirs.stdout, "rgw/lst/set\n└─ docs\n   └─ old\n");
  const files = await mc(["tree", "-f", "rgw/lst/set/docs"]);
  assert.is(files.stdout, "rgw/lst/set/docs\n├─ a.txt\n├─ b.txt\n└─ old\n   └─ c.log\n");
  const shallow = await mc(["tree", "-f", "-d", "1", "rgw/lst/set/docs"]);
  assert.is(shallow.stdout, "rgw/lst/set/docs\n├─ a.txt\n├─ b.txt\n└─ old\n");
  const j = jsonLines((await mc(["tree", "--json", "rgw/lst/set/docs"])).stdout);
  assert.is(j.length, 3);
});

listing("should report missing targets", async () => {
  for (const cmd of ["du", "tree", "find"]) {
    const r = await mc([cmd, "rgw/lst/nothing-here"]);
    assert.is(r.code, 1, cmd);
    assert.match(r.stderr, /^mc: <ERROR> /);
  }
});

listing.run();

// ---

const mirror = suite("mirror against RGW");

mirror("should copy new objects, refuse changes without --overwrite, and remove with --remove", async () => {
  const src = join(work, "mir");
  await mkdir(join(src, "sub"), { recursive: true });
  await writeFile(join(src, "one.txt"), "1");
  await writeFile(join(src, "sub", "two.txt"), "2");
  await writeFile(join(src, "skip.tmp"), "t");
  const first = await mc(["mirror", "--exclude", "*.tmp", src, "rgw/lst/mir"]);
  assert.is(first.code, 0, first.stderr);
  assert.is(first.stdout.split("\n").filter(Boolean).length, 2);
  assert.is((await mc(["stat", "rgw/lst/mir/skip.tmp"])).code, 1);
  await writeFile(join(src, "one.txt"), "one, longer");
  const refused = await mc(["mirror", "--exclude", "*.tmp", src, "rgw/lst/mir"]);
  assert.is(refused.code, 0);
  assert.match(refused.stderr, /Overwrite not allowed .* Use `--overwrite`/);
  const dry = await mc(["mirror", "--dry-run", "--overwrite", "--exclude", "*.tmp", src, "rgw/lst/mir"]);
  assert.match(dry.stdout, /one\.txt/);
  assert.is((await mc(["cat", "rgw/lst/mir/one.txt"])).stdout, "1");
  const json = jsonLines((await mc(["mirror", "--json", "--overwrite", "--exclude", "*.tmp", src, "rgw/lst/mir"])).stdout);
  assert.equal(Object.keys(json[0] ?? {}), ["status", "source", "target", "size", "totalCount", "totalSize", "eventTime", "eventType"]);
  assert.is((await mc(["cat", "rgw/lst/mir/one.txt"])).stdout, "one, longer");
  await mc(["rm", "rgw/lst/mir/one.txt"]);
  await mc(["cp", join(src, "skip.tmp"), "rgw/lst/mir/extra.txt"]);
  const removed = await mc(["mirror", "--remove", "--exclude", "*.tmp", src, "rgw/lst/mir"]);
  assert.match(removed.stdout, /Removed `rgw\/lst\/mir\/extra\.txt`\./);
  assert.is((await mc(["stat", "rgw/lst/mir/extra.txt"])).code, 1);
  assert.is((await mc(["cat", "rgw/lst/mir/one.txt"])).stdout, "one, longer");
});

mirror("should mirror a bucket prefix down to the filesystem", async () => {
  const dst = join(work, "mir-down");
  const r = await mc(["mirror", "rgw/lst/set/docs", dst]);
  assert.is(r.code, 0, r.stderr);
  assert.is(await readFile(join(dst, "old", "c.log"), "utf8"), "c");
});

mirror.run();

// ---

const versions = suite("versions, incomplete uploads and ping against RGW");

versions("should list versions and create delete markers", async () => {
  assert.is((await mc(["mb", "--with-versioning", "rgw/ver"])).code, 0);
  await mc(["pipe", "rgw/ver/v.txt"], { input: "first" });
  await mc(["pipe", "rgw/ver/v.txt"], { input: "second!" });
  const rm = await mc(["rm", "rgw/ver/v.txt"]);
  assert.match(rm.stdout, /^Created delete marker `rgw\/ver\/v\.txt` \(versionId=.+\)\n$/);
  const t = await mc(["ls", "--versions", "rgw/ver/"]);
  const lines = t.stdout.split("\n").filter(Boolean);
  assert.is(lines.length, 3);
  assert.match(lines[0] ?? "", / v3 DEL v\.txt$/);
  assert.match(lines[1] ?? "", /     7B STANDARD \S+ v2 PUT v\.txt$/);
  assert.match(lines[2] ?? "", /     5B STANDARD \S+ v1 PUT v\.txt$/);
  const j = jsonLines((await mc(["ls", "--versions", "--json", "rgw/ver/"])).stdout);
  assert.is(j[0]?.["isDeleteMarker"], true);
  assert.ok(typeof j[1]?.["versionId"] === "string");
  assert.is((await mc(["ls", "rgw/ver/"])).stdout, "");
  const rmAll = await mc(["rm", "--versions", "--force", "-r", "rgw/ver/"]);
  assert.is(rmAll.code, 0, rmAll.stderr);
  assert.is((await mc(["ls", "--versions", "rgw/ver/"])).stdout, "");
});

versions("should find and remove incomplete uploads", async () => {
  await s3.initiateNewMultipartUpload("upl", "half.bin", {});
  const ls = await mc(["ls", "-I", "rgw/upl/"]);
  assert.match(ls.stdout, /half\.bin/);
  const rm = await mc(["rm", "--incomplete", "-r", "--force", "rgw/upl/"]);
  assert.is(rm.code, 0, rm.stderr);
  assert.match(rm.stdout, /Removed `rgw\/upl\/half\.bin`\./);
  assert.is((await mc(["rm", "--incomplete", "-r", "--force", "rgw/upl/"])).stdout, "");
});

versions("should ping the server :: text and json", async () => {
  const t = await mc(["ping", "-c", "2", "-i", "0", "rgw"]);
  assert.is(t.code, 0);
  assert.match(t.stdout, /^  1: http:\/\/127\.0\.0\.1:\d+ +min=[\d.]+ms max=[\d.]+ms average=[\d.]+ms errors=0 roundtrip=[\d.]+ms\n  2: /);
  const j = jsonLines((await mc(["ping", "--json", "-c", "1", "rgw"])).stdout)[0];
  assert.is(j?.["counter"], "  1");
  assert.is((j?.["servers"] as { status: string }[])[0]?.status, "ok ");
});

versions("should resolve a host name with --resolve and MC_RESOLVE", async () => {
  const env = { MC_HOST_named: `http://${rgw.accessKey}:${rgw.secretKey}@storage.mc-test.invalid:${url.port}` };
  const flag = await mc(["ls", "named/upl", "--resolve", `storage.mc-test.invalid:${url.port}=127.0.0.1`], { env });
  assert.is(flag.code, 0, flag.stderr);
  assert.match(flag.stdout, /big\.bin/);
  const viaEnv = await mc(["ls", "named/upl"], { env: { ...env, MC_RESOLVE: "storage.mc-test.invalid=127.0.0.1" } });
  assert.is(viaEnv.code, 0, viaEnv.stderr);
  assert.is((await mc(["ls", "named/upl"], { env })).code, 1);
});

versions("should fail with a wrong secret as SignatureDoesNotMatch", async () => {
  const r = await mc(["ls", "--json", "bad/upl"], { env: { MC_HOST_bad: `http://${rgw.accessKey}:wrong@${url.host}` } });
  assert.is(r.code, 1);
  assert.is(errorCode(r.stdout), "SignatureDoesNotMatch");
});

versions.after(async () => {
  await fx.stop();
});

versions.run();
