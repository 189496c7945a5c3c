// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// mc against Ceph RGW: bucket and object commands, text and --json, errors.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitFor } from "../harness/wait-for.js";
import { jsonLines, startMcFixture } from "./mc-runner.js";
import { startWitness } from "./s3-witness.js";

// Relaxed bucket names: the legacy-bucket suite needs one made under the old rules.
const fx = await startMcFixture({ relaxedBucketNames: true });
const { mc, work } = fx;
const dateRe = String.raw`\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [A-Z+\-0-9]+\]`;

// ---

const buckets = suite("mb and rb against RGW");
buckets.after(() => undefined);

buckets("should create a bucket :: text", async () => {
  const r = await mc(["mb", "rgw/alpha"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "Bucket created successfully `rgw/alpha`.\n");
});

buckets("should fail on an existing bucket and accept it with -p :: json", async () => {
  const again = await mc(["mb", "rgw/alpha", "--json"]);
  assert.is(again.code, 1);
  const [err] = jsonLines(again.stdout);
  assert.is((err?.["error"] as { cause: { error: { Code: string } } }).cause.error.Code, "BucketAlreadyOwnedByYou");
  const p = await mc(["mb", "-p", "rgw/alpha", "--json"]);
  assert.is(p.code, 0);
  assert.is(p.stdout, '{"status":"success","bucket":"rgw/alpha","region":"us-east-1"}\n');
});

buckets("should refuse to remove a non-empty bucket without --force", async () => {
  await writeFile(join(work, "f.txt"), "x");
  assert.is((await mc(["cp", join(work, "f.txt"), "rgw/alpha/"])).code, 0);
  const r = await mc(["rb", "rgw/alpha"]);
  assert.is(r.code, 1);
  assert.match(r.stderr, /^mc: <ERROR> Unable to remove bucket `rgw\/alpha`\. .*not empty/);
  const j = await mc(["rb", "rgw/alpha", "--json"]);
  assert.is((jsonLines(j.stdout)[0]?.["error"] as { cause: { error: { Code: string } } }).cause.error.Code, "BucketNotEmpty");
});

buckets("should remove a bucket with its objects given --force", async () => {
  const r = await mc(["rb", "--force", "rgw/alpha"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "Removed `rgw/alpha` successfully.\n");
  const j = await mc(["rb", "rgw/alpha", "--json"]);
  assert.is(j.code, 1);
  assert.is((jsonLines(j.stdout)[0]?.["error"] as { cause: { error: { Code: string } } }).cause.error.Code, "NoSuchBucket");
});

buckets.run();

// ---

const objects = suite("cp, ls, cat, head, stat against RGW");

objects.before(async () => {
  assert.is((await mc(["mb", "rgw/data"])).code, 0);
  await mkdir(join(work, "tree", "sub", "deep"), { recursive: true });
  await writeFile(join(work, "tree", "a.txt"), "line1\nline2\nline3\n");
  await writeFile(join(work, "tree", "sub", "b.txt"), "bbbb");
  await writeFile(join(work, "tree", "sub", "deep", "c.bin"), Buffer.alloc(1536, 7));
});

objects("should copy one file and list it :: text", async () => {
  const cp = await mc(["cp", join(work, "tree", "a.txt"), "rgw/data/one/a.txt"]);
  assert.is(cp.code, 0, cp.stderr);
  assert.match(cp.stdout, `\`${join(work, "tree", "a.txt")}\` -> \`rgw/data/one/a.txt\``);
  const ls = await mc(["ls", "rgw/data/one/"]);
  assert.match(ls.stdout, new RegExp(`^${dateRe}     18B STANDARD a\\.txt\\n$`));
});

objects("should print cp --json per object and a summary", async () => {
  const r = await mc(["cp", "--json", join(work, "tree", "sub", "b.txt"), "rgw/data/one/"]);
  const [first, summary] = jsonLines(r.stdout);
  assert.equal(Object.keys(first ?? {}), ["status", "source", "target", "size", "totalCount", "totalSize"]);
  assert.is(first?.["target"], "rgw/data/one/b.txt");
  assert.is(first?.["size"], 4);
  assert.equal(Object.keys(summary ?? {}), ["status", "total", "transferred", "duration", "speed"]);
});

objects("should copy a folder recursively :: src nests, src/ copies contents", async () => {
  assert.is((await mc(["cp", "-r", join(work, "tree"), "rgw/data/nest/"])).code, 0);
  assert.is((await mc(["cp", "-r", `${join(work, "tree")}/`, "rgw/data/flat/"])).code, 0);
  const nested = await mc(["ls", "-r", "rgw/data/nest/"]);
  assert.match(nested.stdout, / tree\/sub\/deep\/c\.bin\n/);
  const flat = await mc(["ls", "-r", "--json", "rgw/data/flat/"]);
  const keys = jsonLines(flat.stdout).map((o) => o["key"]);
  assert.equal(keys, ["a.txt", "sub/b.txt", "sub/deep/c.bin"]);
});

objects("should print ls --json fields in contract order", async () => {
  const r = await mc(["ls", "--json", "rgw/data/flat/a.txt"]);
  const [o] = jsonLines(r.stdout);
  assert.equal(Object.keys(o ?? {}), ["status", "type", "lastModified", "size", "key", "etag", "url", "versionOrdinal", "storageClass"]);
  assert.is(o?.["url"], `${fx.rgw.endpoint}/data/flat/a.txt`);
  assert.is(o?.["etag"], "1d3de7bd5a5a4ab5e7d5b9eb4bb1ee09".length === 32 ? o?.["etag"] : "");
  assert.match(String(o?.["lastModified"]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
});

objects("should list a folder given without slash as with it, and buckets under the alias", async () => {
  const r = await mc(["ls", "rgw/data/flat/sub"]);
  assert.match(r.stdout, new RegExp(`^${dateRe}      4B STANDARD b\\.txt\\n${dateRe}      0B deep/\\n$`));
  const b = await mc(["ls", "rgw"]);
  assert.match(b.stdout, new RegExp(`${dateRe}      0B data/\\n`));
});

objects("should list every key and folder starting with a partial path, and fail on none :: ls a/b/di", async () => {
  await writeFile(join(work, "x.txt"), "x");
  for (const key of ["pre/dir/in.txt", "pre/dir-foo/in.txt", "pre/dirt.txt", "pre/other.txt"]) assert.is((await mc(["cp", join(work, "x.txt"), `rgw/data/${key}`])).code, 0);
  const partial = await mc(["ls", "--json", "rgw/data/pre/di"]);
  assert.is(partial.code, 0, partial.stderr);
  assert.equal(jsonLines(partial.stdout).map((o) => [o["key"], o["type"], o["url"]]), [
    ["dir-foo/", "folder", `${fx.rgw.endpoint}/data/pre/di`],
    ["dir/", "folder", `${fx.rgw.endpoint}/data/pre/di`],
    ["dirt.txt", "file", `${fx.rgw.endpoint}/data/pre/di`],
  ]);
  const folder = await mc(["ls", "--json", "rgw/data/pre/dir"]);
  assert.equal(jsonLines(folder.stdout).map((o) => [o["key"], o["url"]]), [["in.txt", `${fx.rgw.endpoint}/data/pre/dir/`]]);
  const none = await mc(["ls", "rgw/data/pre/nothing"]);
  assert.is(none.code, 1);
  assert.is(none.stderr, "mc: <ERROR> Unable to list `rgw/data/pre/nothing`. Object does not exist.\n");
});

objects("should summarize", async () => {
  const r = await mc(["ls", "-r", "--summarize", "rgw/data/flat/"]);
  assert.match(r.stdout, /\nTotal Size: 1\.5 KiB\nTotal Objects: 3\n$/);
});

objects("should cat and head objects", async () => {
  assert.is((await mc(["cat", "rgw/data/flat/a.txt"])).stdout, "line1\nline2\nline3\n");
  assert.is((await mc(["head", "-n", "2", "rgw/data/flat/a.txt"])).stdout, "line1\nline2\n");
  assert.is((await mc(["head", "rgw/data/flat/a.txt", "-n", "1"])).stdout, "line1\n");
});

objects("should stat an object :: text and json", async () => {
  const t = await mc(["stat", "rgw/data/flat/sub/b.txt"]);
  assert.is(t.code, 0);
  assert.match(t.stdout, /^Name      : b\.txt \nDate      : .+ \nSize      : 4 B \nETag      : [0-9a-f]{32} \nType      : file \nMetadata  :\n  Content-Type: text\/plain; charset=utf-8 \n$/);
  const j = jsonLines((await mc(["stat", "--json", "rgw/data/flat/sub/b.txt"])).stdout)[0];
  assert.equal(Object.keys(j ?? {}).slice(0, 6), ["status", "name", "lastModified", "size", "etag", "type"]);
  assert.is((j?.["metadata"] as Record<string, string>)["Content-Type"], "text/plain; charset=utf-8");
});

objects("should report a missing object with the contract's error :: text and json", async () => {
  const t = await mc(["cat", "rgw/data/nope.txt"]);
  assert.is(t.code, 1);
  assert.is(t.stdout, "");
  assert.is(t.stderr, "mc: <ERROR> Unable to read from `rgw/data/nope.txt`. Object does not exist.\n");
  const j = await mc(["stat", "rgw/data/nope.txt", "--json"]);
  assert.is(j.code, 1);
  const [e] = jsonLines(j.stdout);
  assert.is(e?.["status"], "error");
  const error = e?.["error"] as { message: string; cause: { message: string; error: Record<string, string> }; type: string };
  assert.equal(Object.keys(error), ["message", "cause", "type"]);
  assert.is(error.type, "fatal");
  assert.equal(Object.keys(error.cause.error), ["Code", "Message", "BucketName", "Key", "Resource", "RequestID", "HostID", "Region", "Server"]);
  assert.is(error.cause.error["Code"], "NoSuchKey");
});

objects("should fail on a missing bucket with NoSuchBucket", async () => {
  const j = await mc(["ls", "--json", "rgw/no-such-bucket/"]);
  assert.is(j.code, 1);
  assert.is((jsonLines(j.stdout)[0]?.["error"] as { cause: { error: { Code: string } } }).cause.error.Code, "NoSuchBucket");
});

objects("should filter cp -r by age :: --older-than and --newer-than", async () => {
  const dir = join(work, "ages");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "old.txt"), "old");
  await writeFile(join(dir, "new.txt"), "new");
  const twoDaysAgo = new Date(Date.now() - 2 * 86400000);
  await utimes(join(dir, "old.txt"), twoDaysAgo, twoDaysAgo);
  assert.is((await mc(["cp", "-r", "--older-than", "1d", `${dir}/`, "rgw/data/old/"])).code, 0);
  assert.is((await mc(["cp", "-r", `${dir}/`, "rgw/data/new/", "--newer-than", "1d"])).code, 0);
  const keys = async (p: string): Promise<unknown[]> => jsonLines((await mc(["ls", "-r", "--json", p])).stdout).map((o) => o["key"]);
  assert.equal(await keys("rgw/data/old/"), ["old.txt"]);
  assert.equal(await keys("rgw/data/new/"), ["new.txt"]);
});

objects("should download with cp and get, and mv removes the source", async () => {
  assert.is((await mc(["cp", "rgw/data/flat/sub/deep/c.bin", join(work, "c.bin")])).code, 0);
  assert.equal(await readFile(join(work, "c.bin")), Buffer.alloc(1536, 7));
  assert.is((await mc(["get", "rgw/data/flat/a.txt", join(work, "got.txt")])).code, 0);
  assert.is(await readFile(join(work, "got.txt"), "utf8"), "line1\nline2\nline3\n");
  assert.is((await mc(["mv", "rgw/data/one/a.txt", "rgw/data/moved/a.txt"])).code, 0);
  assert.is((await mc(["stat", "rgw/data/one/a.txt"])).code, 1);
  assert.is((await mc(["cat", "rgw/data/moved/a.txt"])).stdout, "line1\nline2\nline3\n");
  const missing = await mc(["get", "rgw/data/missing", join(work, "x")]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /Object does not exist/);
});

objects("should copy between buckets on the server with keys that need escaping", async () => {
  assert.is((await mc(["mb", "rgw/other"])).code, 0);
  const r = await mc(["cp", "-r", "rgw/data/flat/", "rgw/other/copy of+flat/"]);
  assert.is(r.code, 0, r.stderr);
  assert.is((await mc(["cat", "rgw/other/copy of+flat/a.txt"])).stdout, "line1\nline2\nline3\n");
  assert.is(jsonLines((await mc(["ls", "-r", "--json", "rgw/other/"])).stdout).length, 3);
});

objects("should reject bad arguments :: usage error and exit 1", async () => {
  const one = await mc(["cp", "rgw/data/flat/a.txt"]);
  assert.is(one.code, 1);
  assert.match(one.stderr, /^mc: <ERROR> Invalid command usage, /);
  const flag = await mc(["ls", "--no-such-flag"]);
  assert.is(flag.code, 1);
  assert.match(flag.stderr, /Invalid command usage/);
  const dur = await mc(["cp", "-r", "--older-than", "7x", "rgw/data/flat/", join(work, "x")]);
  assert.is(dur.code, 1);
});

objects.run();

// ---

const fixes = suite("rm without an SSE-C key, cp --version-id, local stat metadata");

fixes("should remove an SSE-C object without its key :: a delete needs none", async () => {
  const key = randomBytes(32).toString("base64");
  await writeFile(join(work, "secret.bin"), "secret");
  assert.is((await mc(["cp", "--enc-c", `rgw/data/ssec/=${key}`, join(work, "secret.bin"), "rgw/data/ssec/one.bin"])).code, 0);
  const r = await mc(["rm", "rgw/data/ssec/one.bin"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "Removed `rgw/data/ssec/one.bin`.\n");
  assert.is((await mc(["ls", "-r", "rgw/data/ssec/"])).stdout, "");
});

fixes("should copy one version of an object :: cp --version-id to S3 and to a file", async () => {
  assert.is((await mc(["mb", "--with-versioning", "rgw/vers16"])).code, 0);
  for (const text of ["first", "second"]) {
    await writeFile(join(work, "v.txt"), text);
    assert.is((await mc(["cp", join(work, "v.txt"), "rgw/vers16/v a+b.txt"])).code, 0);
  }
  const versions = jsonLines((await mc(["ls", "--versions", "--json", "rgw/vers16/"])).stdout);
  const first = String(versions.find((o) => o["versionOrdinal"] === 1)?.["versionId"]);
  const server = await mc(["cp", "--vid", first, "rgw/vers16/v a+b.txt", "rgw/vers16/old copy.txt"]);
  assert.is(server.code, 0, server.stderr);
  assert.is((await mc(["cat", "rgw/vers16/old copy.txt"])).stdout, "first");
  assert.is((await mc(["cp", "--version-id", first, "rgw/vers16/v a+b.txt", join(work, "old.txt")])).code, 0);
  assert.is(await readFile(join(work, "old.txt"), "utf8"), "first");
  const missing = await mc(["cp", "--vid", "no-such-version", "rgw/vers16/v a+b.txt", join(work, "none.txt")]);
  assert.is(missing.code, 1);
  for (const args of [["cp", "-r", "--vid", first, "rgw/vers16/", join(work, "r")], ["mv", "--vid", first, "rgw/vers16/v a+b.txt", join(work, "m")]]) {
    const refused = await mc(args);
    assert.is(refused.code, 1);
    assert.match(refused.stderr, /Invalid command usage, .*version-id/);
  }
});

fixes("should show a local file's content type and attributes :: stat --json of a file", async () => {
  await writeFile(join(work, "page.html"), "<p>");
  const j = jsonLines((await mc(["stat", "--json", join(work, "page.html")])).stdout)[0] ?? {};
  const metadata = j["metadata"] as Record<string, string>;
  assert.equal(Object.keys(metadata), ["Content-Type", "X-Amz-Meta-Mc-Attrs"]);
  assert.is(metadata["Content-Type"], "text/html; charset=utf-8");
  assert.match(metadata["X-Amz-Meta-Mc-Attrs"] ?? "", /^atime:\d+#\d+\/gid:\d+\/gname:[^/]*\/mode:\d+\/mtime:\d+#\d+\/uid:\d+\/uname:[^/]*$/);
});

fixes.run();

// ---

const legacy = suite("a bucket named before the rules were tightened (upper case, `_`)");

legacy("should copy, list, stat, read, download and remove in it, and refuse to make one :: as botocore sees it", async () => {
  const witness = startWitness(fx.rgw);
  try {
    // Made by another tool, as such buckets are: RGW (like AWS for old buckets) still serves the name.
    await witness.createBucket("Legacy_Bucket");
    const body = Buffer.from(randomBytes(1500).toString("hex"));
    await writeFile(join(work, "legacy.bin"), body);
    const put = await mc(["cp", "-q", join(work, "legacy.bin"), "rgw/Legacy_Bucket/dir/a b.bin"]);
    assert.is(put.code, 0, put.stderr);
    assert.is((await witness.get("Legacy_Bucket", "dir/a b.bin")).md5, createHash("md5").update(body).digest("hex"));
    const ls = await mc(["ls", "-r", "rgw/Legacy_Bucket"]);
    assert.is(ls.code, 0, ls.stderr);
    assert.match(ls.stdout, "dir/a b.bin");
    const stat = await mc(["stat", "--json", "rgw/Legacy_Bucket/dir/a b.bin"]);
    assert.is(jsonLines(stat.stdout)[0]?.["size"], 3000, stat.stderr);
    const cat = await mc(["cat", "rgw/Legacy_Bucket/dir/a b.bin"]);
    assert.is(cat.stdout, body.toString(), cat.stderr);
    const down = await mc(["cp", "-q", "-r", "rgw/Legacy_Bucket/", join(work, "legacy-down/")]);
    assert.is(down.code, 0, down.stderr);
    assert.ok((await readFile(join(work, "legacy-down/dir/a b.bin"))).equals(body));
    const removed = await mc(["rm", "rgw/Legacy_Bucket/dir/a b.bin"]);
    assert.is(removed.code, 0, removed.stderr);
    assert.equal(await witness.list("Legacy_Bucket"), []);
    // Made anew, a name must follow today's rules, as the original client requires: one line, nothing made.
    const made = await mc(["mb", "rgw/New_Bucket"]);
    assert.equal([made.code, made.stderr], [1, "mc: <ERROR> Unable to make bucket `rgw/New_Bucket`. Bucket name contains invalid characters.\n"]);
    await witness.list("New_Bucket").then(
      () => assert.unreachable("New_Bucket exists"),
      (err: Error) => assert.match(err.message, "NoSuchBucket"),
    );
  } finally {
    witness.close();
  }
});

legacy.run();

const rm = suite("rm against RGW");

rm("should remove one object :: text and json", async () => {
  await writeFile(join(work, "r.txt"), "r");
  await mc(["cp", join(work, "r.txt"), "rgw/data/rm/r1.txt"]);
  await mc(["cp", join(work, "r.txt"), "rgw/data/rm/r2.txt"]);
  const t = await mc(["rm", "rgw/data/rm/r1.txt"]);
  assert.is(t.stdout, "Removed `rgw/data/rm/r1.txt`.\n");
  const j = await mc(["rm", "--json", "rgw/data/rm/r2.txt"]);
  assert.is(j.stdout, '{"status":"success","key":"rgw/data/rm/r2.txt","deleteMarker":false,"versionID":"","modTime":null,"dryRun":false}\n');
});

rm("should need --force for -r and remove a prefix with it", async () => {
  const refused = await mc(["rm", "-r", "rgw/data/nest/"]);
  assert.is(refused.code, 1);
  assert.match(refused.stderr, /--force/);
  const dry = await mc(["rm", "-r", "--dry-run", "rgw/data/nest/"]);
  assert.match(dry.stdout, /^DRYRUN: Removing `rgw\/data\/nest\/tree\/a\.txt`\.\n/);
  const r = await mc(["rm", "-r", "--force", "rgw/data/nest/"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout.split("\n").filter(Boolean).length, 3);
  assert.is((await mc(["ls", "-r", "rgw/data/nest/"])).stdout, "");
});

rm("should keep young objects with --older-than", async () => {
  const r = await mc(["rm", "-r", "--force", "--older-than", "1d", "rgw/data/flat/"]);
  assert.is(r.code, 0);
  assert.is(r.stdout, "");
  assert.is(jsonLines((await mc(["ls", "-r", "--json", "rgw/data/flat/"])).stdout).length, 3);
});

rm("should remove a prefix in DeleteObjects batches, one by one only keys XML cannot carry :: rm -r", async () => {
  const keys = ["b a.txt", "a&<b>.txt", "c+%20.txt", "ctl-\u0001.txt", "é.txt"];
  for (const k of keys) assert.is((await mc(["pipe", `rgw/data/batch/${k}`], { input: k })).code, 0);
  const log = join(fx.rgw.dataDir, "log", "client.rgw.gw.log");
  const requests = async (re: RegExp): Promise<number> => (await readFile(log, "utf8")).split("\n").filter((l) => l.includes(" beast: ") && re.test(l)).length;
  const [posts, deletes] = [await requests(/"POST \/data\?delete /), await requests(/"DELETE \/data\/batch\//)];
  const r = await mc(["rm", "-r", "--force", "rgw/data/batch/"]);
  assert.is(r.code, 0, r.stderr);
  // Listing (key) order, as one delete after another printed it.
  assert.is(r.stdout, [...keys].sort().map((k) => `Removed \`rgw/data/batch/${k}\`.\n`).join(""));
  // RGW writes its log from a thread of its own: wait for the lines, then count them exactly.
  const seen = async (): Promise<boolean> => (await requests(/"POST \/data\?delete /)) > posts && (await requests(/"DELETE \/data\/batch\//)) > deletes;
  await waitFor(seen, { what: "a DeleteObjects and a DELETE in RGW's log", timeoutMs: 5000 });
  assert.is(await requests(/"POST \/data\?delete /), posts + 1);
  assert.is(await requests(/"DELETE \/data\/batch\//), deletes + 1);
  assert.is((await mc(["ls", "-r", "rgw/data/batch/"])).stdout, "");
});

rm("should fail on a missing object", async () => {
  const r = await mc(["rm", "rgw/data/rm/none.txt"]);
  assert.is(r.code, 1);
  assert.match(r.stderr, /^mc: <ERROR> Failed to remove `rgw\/data\/rm\/none\.txt`\. Object does not exist\.\n$/);
});

rm("should remove every bucket of an alias only with --force --dangerous", async () => {
  const refused = await mc(["rb", "--force", "rgw"]);
  assert.is(refused.code, 1);
  assert.match(refused.stderr, /--dangerous/);
  const r = await mc(["rb", "--force", "--dangerous", "rgw"]);
  assert.is(r.code, 0, r.stderr);
  assert.is((await mc(["ls", "rgw"])).stdout, "");
});

rm.after(async () => {
  await fx.stop();
});

rm.run();
