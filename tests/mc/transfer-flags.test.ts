// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// Transfer flags against Ceph RGW: --attr, --tags, --storage-class and object-lock
// flags on cp, put and pipe; cp -a; mirror attributes, encryption, summary and
// exclusions (storage class, bucket); find --metadata/--tags.
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "./mc-runner.js";

const fx = await startMcFixture();
const { mc } = fx;
const statOf = async (target: string): Promise<Record<string, unknown>> => {
  const r = await mc(["stat", "--json", target]);
  assert.is(r.code, 0, r.stderr);
  return jsonLines(r.stdout)[0] ?? {};
};
const tagsOf = async (target: string): Promise<unknown> => jsonLines((await mc(["tag", "list", "--json", target])).stdout)[0]?.["tagset"];

const attrs = suite("object attributes on upload");

attrs.before(async () => {
  assert.is((await mc(["mb", "rgw/attrs"])).code, 0);
  await writeFile(join(fx.work, "song.txt"), "la la la");
});

attrs("should store --attr as metadata and headers, --tags as tags, with cp", async () => {
  const r = await mc(["cp", "--attr", "Content-Type=text/x-song;Artist=Miles Davis", "--tags", "project=alpha&team=brass", "--sc", "standard", join(fx.work, "song.txt"), "rgw/attrs/song.txt"]);
  assert.is(r.code, 0, r.stderr);
  const meta = (await statOf("rgw/attrs/song.txt"))["metadata"] as Record<string, string>;
  assert.is(meta["Content-Type"], "text/x-song");
  assert.is(meta["X-Amz-Meta-Artist"], "Miles Davis");
  assert.equal(await tagsOf("rgw/attrs/song.txt"), { project: "alpha", team: "brass" });
});

attrs("should apply them to a copy between buckets too (the copy streams, so nothing of the source's is kept)", async () => {
  const r = await mc(["cp", "--attr", "Artist=Chet Baker", "rgw/attrs/song.txt", "rgw/attrs/copy.txt"]);
  assert.is(r.code, 0, r.stderr);
  const meta = (await statOf("rgw/attrs/copy.txt"))["metadata"] as Record<string, string>;
  assert.is(meta["X-Amz-Meta-Artist"], "Chet Baker");
  assert.is((await mc(["cat", "rgw/attrs/copy.txt"])).stdout, "la la la");
});

attrs("should change an object's metadata by copying it onto itself, and refuse to move it onto itself", async () => {
  assert.is((await mc(["pipe", "rgw/attrs/self.txt"], { input: "la la la" })).code, 0);
  assert.is((await mc(["cp", "--attr", "Artist=Bill Evans", "rgw/attrs/self.txt", "rgw/attrs/self.txt"])).code, 0);
  assert.is((((await statOf("rgw/attrs/self.txt"))["metadata"] ?? {}) as Record<string, unknown>)["X-Amz-Meta-Artist"], "Bill Evans");
  // Before, the copy succeeded and the move then removed the object it had just written.
  const r = await mc(["mv", "--attr", "Artist=Gone", "rgw/attrs/self.txt", "rgw/attrs/self.txt"]);
  assert.equal([r.code, r.stderr], [1, "mc: <ERROR> Failed to move `rgw/attrs/self.txt`: it is its own target; nothing was changed.\n"]);
  assert.is((await mc(["cat", "rgw/attrs/self.txt"])).stdout, "la la la");
});

attrs("should take them on pipe and --sc on put", async () => {
  const r = await mc(["pipe", "--attr", "Cache-Control=no-cache;Mood=blue", "--tags", "source=stdin", "--sc", "STANDARD", "rgw/attrs/piped.txt"], { input: "from a pipe" });
  assert.is(r.code, 0, r.stderr);
  const meta = (await statOf("rgw/attrs/piped.txt"))["metadata"] as Record<string, string>;
  assert.is(meta["X-Amz-Meta-Mood"], "blue");
  assert.is(meta["Cache-Control"], "no-cache", "a standard header stays one");
  assert.equal(await tagsOf("rgw/attrs/piped.txt"), { source: "stdin" });
  const put = await mc(["put", "--sc", "STANDARD", join(fx.work, "song.txt"), "rgw/attrs/put.txt"]);
  assert.is(put.code, 0, put.stderr);
});

attrs("should find objects by metadata and by tags (KEY=REGEX, every condition must hold)", async () => {
  const find = async (...args: string[]): Promise<string[]> => {
    const r = await mc(["find", "rgw/attrs", ...args]);
    assert.is(r.code, 0, r.stderr);
    return r.stdout.split("\n").filter((l) => l !== "").sort();
  };
  assert.equal(await find("--metadata", "artist=^Miles"), ["rgw/attrs/song.txt"]);
  assert.equal(await find("--metadata", "X-Amz-Meta-Artist=Baker$"), ["rgw/attrs/copy.txt"]);
  assert.equal(await find("--metadata", "content-type=^text/x-song$"), ["rgw/attrs/song.txt"]);
  assert.equal(await find("--tags", "project=alpha", "--tags", "team=brass"), ["rgw/attrs/song.txt"]);
  assert.equal(await find("--tags", "project=alpha", "--tags", "team=strings"), []);
  assert.equal(await find("--tags", "source=.*", "--name", "*.txt"), ["rgw/attrs/piped.txt"]);
  const bad = await mc(["find", "rgw/attrs", "--metadata", "no-regex"]);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, "Invalid command usage, invalid --metadata `no-regex`; use KEY=REGEX.");
  const badRe = await mc(["find", "rgw/attrs", "--tags", "k=(("]);
  assert.is(badRe.code, 1);
  assert.match(badRe.stderr, "Invalid --tags `k=((`");
  const local = await mc(["find", fx.work, "--tags", "k=v"]);
  assert.is(local.code, 1);
  assert.match(local.stderr, "--tags needs an S3 target");
});

attrs("should lock the new object with --retention-mode/--retention-duration and --legal-hold on cp", async () => {
  assert.is((await mc(["mb", "--with-lock", "rgw/attrlock"])).code, 0);
  const r = await mc(["cp", "--retention-mode", "governance", "--retention-duration", "1d", "--legal-hold", "on", join(fx.work, "song.txt"), "rgw/attrlock/kept.txt"]);
  assert.is(r.code, 0, r.stderr);
  const ret = jsonLines((await mc(["retention", "info", "--json", "rgw/attrlock/kept.txt"])).stdout)[0] ?? {};
  assert.is(ret["mode"], "GOVERNANCE");
  assert.ok(Math.abs(Date.parse(String(ret["until"])) - (Date.now() + 86400e3)) < 120e3, String(ret["until"]));
  assert.is(jsonLines((await mc(["legalhold", "info", "--json", "rgw/attrlock/kept.txt"])).stdout)[0]?.["legalhold"], "ON");
  const vid = String((await statOf("rgw/attrlock/kept.txt"))["versionID"] ?? "");
  const rm = await mc(["rm", "--version-id", vid, "rgw/attrlock/kept.txt"]);
  assert.is(rm.code, 1);
  assert.match(rm.stderr, "WORM protected");
  const half = await mc(["cp", "--retention-mode", "governance", join(fx.work, "song.txt"), "rgw/attrlock/half.txt"]);
  assert.is(half.code, 1);
  assert.match(half.stderr, "--retention-mode and --retention-duration go together");
});

attrs("should carry file times and mode through the bucket with cp -a, and restore them on the way back", async () => {
  const src = join(fx.work, "keep-me.sh");
  await writeFile(src, "#!/bin/sh\necho kept\n");
  await chmod(src, 0o750);
  await utimes(src, 1_600_000_100, 1_600_000_000.5);
  const up = await mc(["cp", "-a", src, "rgw/attrs/keep-me.sh"]);
  assert.is(up.code, 0, up.stderr);
  const meta = (await statOf("rgw/attrs/keep-me.sh"))["metadata"] as Record<string, string>;
  assert.match(meta["X-Amz-Meta-Mc-Attrs"] ?? "", /^atime:1600000100#0\/gid:\d+\/gname:[^/]*\/mode:33256\/mtime:1600000000#500000000\/uid:\d+\/uname:[^/]*$/);
  const back = join(fx.work, "restored.sh");
  const down = await mc(["cp", "-a", "rgw/attrs/keep-me.sh", back]);
  assert.is(down.code, 0, down.stderr);
  const st = await stat(back);
  assert.is(st.mode & 0o7777, 0o750);
  assert.is(st.mtimeMs, 1_600_000_000_500);
  const plain = join(fx.work, "plain.sh");
  assert.is((await mc(["cp", "rgw/attrs/keep-me.sh", plain])).code, 0);
  assert.ok((await stat(plain)).mtimeMs > 1_700_000_000_000, "without -a the file is simply new");
});

attrs("should give mirrored objects --attr metadata and refuse a bad --attr before copying", async () => {
  const dir = join(fx.work, "tree");
  await mkdir(join(dir, "sub"), { recursive: true });
  await writeFile(join(dir, "one.txt"), "1");
  await writeFile(join(dir, "sub", "two.txt"), "2");
  const r = await mc(["mirror", "--attr", "Mirrored=yes", "--sc", "STANDARD", dir, "rgw/attrs/mirror"]);
  assert.is(r.code, 0, r.stderr);
  for (const key of ["one.txt", "sub/two.txt"]) assert.is(((await statOf(`rgw/attrs/mirror/${key}`))["metadata"] as Record<string, string>)["X-Amz-Meta-Mirrored"], "yes");
  const bad = await mc(["mirror", "--attr", "=x", dir, "rgw/attrs/mirror2"]);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, "invalid --attr");
  assert.is((await mc(["ls", "rgw/attrs/mirror2"])).code, 1, "nothing was mirrored");
});

attrs("should mirror with --enc-c, print --summary, and leave out a storage class with --exclude-storageclass", async () => {
  const dir = join(fx.work, "secret-tree");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "s.txt"), "sealed");
  const key = `rgw/attrs/sealed/=${randomBytes(32).toString("base64")}`;
  const up = await mc(["mirror", "--enc-c", key, "--summary", "--disable-multipart", dir, "rgw/attrs/sealed"]);
  assert.is(up.code, 0, up.stderr);
  assert.match(up.stdout, /Total +\| Transferred +\| Duration +\| Speed/);
  assert.is((await mc(["cat", "rgw/attrs/sealed/s.txt"])).code, 1, "unreadable without the key");
  assert.is((await mc(["cat", "--enc-c", key, "rgw/attrs/sealed/s.txt"])).stdout, "sealed");
  // diff takes the same flags; names and sizes come from listings.
  const diff = await mc(["diff", "--enc-c", key, dir, "rgw/attrs/sealed", "--json"]);
  assert.is(diff.code, 0, diff.stderr);
  assert.is(diff.stdout, "", "same names, same sizes");
  const badKey = await mc(["diff", "--enc-c", "rgw/attrs/sealed/=short", dir, "rgw/attrs/sealed"]);
  assert.is(badKey.code, 1);
  const none = join(fx.work, "no-standard");
  const skipped = await mc(["mirror", "--exclude-storageclass", "standard", "rgw/attrs/mirror", none]);
  assert.is(skipped.code, 0, skipped.stderr);
  assert.is((await mc(["ls", "-r", none])).stdout, "");
  const all = await mc(["mirror", "--exclude-storageclass", "GLACIER", "rgw/attrs/mirror", join(fx.work, "all")]);
  assert.is(all.code, 0, all.stderr);
  assert.is(await readFile(join(fx.work, "all", "sub", "two.txt"), "utf8"), "2");
});

attrs("should mirror a whole alias bucket by bucket into folders, leaving out --exclude-bucket matches", async () => {
  const out = join(fx.work, "whole-alias");
  // The SSE-C object cannot be read without its key: left out by --exclude.
  const r = await mc(["mirror", "--exclude-bucket", "attrlock*", "--exclude", "sealed/*", "rgw", out]);
  assert.is(r.code, 0, r.stderr);
  assert.is(await readFile(join(out, "attrs", "mirror", "sub", "two.txt"), "utf8"), "2");
  assert.is(await readFile(join(out, "attrs", "song.txt"), "utf8"), "la la la");
  assert.is((await mc(["ls", join(out, "attrlock")])).code, 1, "the excluded bucket was not mirrored");
  // Without --exclude the SSE-C object fails: reported, retried with --retry, exit 0 with --skip-errors.
  const failing = await mc(["mirror", "--retry", "rgw/attrs/sealed", join(fx.work, "sealed-copy")]);
  assert.is(failing.code, 1);
  assert.is(failing.stderr.split("Failed to copy `rgw/attrs/sealed/s.txt`").length - 1, 1, "reported once, after the retry");
  const skipped = await mc(["mirror", "--skip-errors", "rgw/attrs/sealed", join(fx.work, "sealed-copy")]);
  assert.is(skipped.code, 0);
  assert.match(skipped.stderr, "Failed to copy `rgw/attrs/sealed/s.txt`");
  const watch = await mc(["mirror", "--watch", "rgw", out]);
  assert.is(watch.code, 1);
  assert.match(watch.stderr, "mirror --watch needs a bucket or folder as SOURCE, not a whole alias.");
});

attrs("should accept --enc-s3 on cp and put (RGW stores the object; it neither encrypts nor echoes SSE-S3) and refuse a key with it", async () => {
  const cp = await mc(["cp", "--enc-s3", "rgw/attrs/s3enc", join(fx.work, "song.txt"), "rgw/attrs/s3enc/song.txt"]);
  assert.is(cp.code, 0, cp.stderr);
  assert.is((await mc(["cat", "rgw/attrs/s3enc/song.txt"])).stdout, "la la la");
  const put = await mc(["put", "--enc-s3", "rgw/attrs/s3enc", join(fx.work, "song.txt"), "rgw/attrs/s3enc/put.txt"]);
  assert.is(put.code, 0, put.stderr);
  const keyed = await mc(["cp", "--enc-s3", "rgw/attrs/s3enc=abc", join(fx.work, "song.txt"), "rgw/attrs/s3enc/bad.txt"]);
  assert.is(keyed.code, 1);
  assert.match(keyed.stderr, 'Invalid command usage, --enc-s3 takes "alias/prefix"');
  assert.is((await mc(["stat", "rgw/attrs/s3enc/bad.txt"])).code, 1);
});

attrs("should refuse malformed flags before writing, and pass on the server's refusal of a storage class", async () => {
  const bad = await mc(["cp", "--attr", "no-equals-sign", join(fx.work, "song.txt"), "rgw/attrs/bad.txt"]);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, "mc: <ERROR> Invalid command usage, invalid --attr `no-equals-sign`");
  const tags = await mc(["pipe", "--tags", "=x", "rgw/attrs/bad.txt"], { input: "x" });
  assert.is(tags.code, 1);
  assert.match(tags.stderr, "Invalid command usage, invalid tag `=x`");
  const sc = await mc(["cp", "--sc", "NO_SUCH_CLASS", join(fx.work, "song.txt"), "rgw/attrs/bad.txt", "--json"]);
  assert.is(sc.code, 1);
  // RGW answers InvalidArgument (AWS: InvalidStorageClass): the server's code is passed on.
  assert.match(sc.stdout, /"Code":"Invalid(Argument|StorageClass)"/);
  assert.is((await mc(["stat", "rgw/attrs/bad.txt"])).code, 1, "nothing was written");
});

attrs.after(() => fx.stop());
attrs.run();
