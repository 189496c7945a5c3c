// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// mc version / ls --versions / rm --version-id / undo against Ceph RGW.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "./mc-runner.js";
import { putListed } from "./put-listed.js";

const fx = await startMcFixture();
const { mc } = fx;
const put = async (target: string, body: string): Promise<void> => {
  await putListed(mc, target, body);
};
const cat = async (target: string): Promise<string> => (await mc(["cat", target])).stdout;
interface Version {
  versionId: string;
  versionOrdinal: number;
  isDeleteMarker?: boolean;
  key: string;
}
const versionsOf = async (target: string): Promise<Version[]> => {
  const r = await mc(["ls", "--versions", "--json", target]);
  assert.is(r.code, 0, r.stderr + r.stdout);
  return jsonLines(r.stdout) as unknown as Version[];
};
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const errorCode = (stdout: string): string => ((jsonLines(stdout)[0]?.["error"] as { cause: { error: { Code?: string } } }).cause.error.Code ?? "");

// ---

const version = suite("version enable, suspend, info");

version.before(async () => {
  assert.is((await mc(["mb", "rgw/vers"])).code, 0);
});

version("should report a new bucket as un-versioned :: text and json", async () => {
  const r = await mc(["version", "info", "rgw/vers"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "rgw/vers is un-versioned\n");
  const j = await mc(["version", "info", "rgw/vers", "--json"]);
  assert.is(j.stdout, '{"Op":"info","status":"success","url":"rgw/vers","versioning":{"status":"","MFADelete":""}}\n');
});

version("should enable, suspend and enable again", async () => {
  const e = await mc(["version", "enable", "rgw/vers"]);
  assert.is(e.code, 0, e.stderr);
  assert.is(e.stdout, "rgw/vers versioning is enabled\n");
  const s = await mc(["version", "suspend", "rgw/vers", "--json"]);
  assert.is(s.stdout, '{"Op":"suspend","status":"success","url":"rgw/vers","versioning":{"status":"Suspended","MFADelete":""}}\n');
  assert.is((await mc(["version", "info", "rgw/vers"])).stdout, "rgw/vers versioning is suspended\n");
  assert.is((await mc(["version", "enable", "rgw/vers"])).code, 0);
  const j = jsonLines((await mc(["version", "info", "--json", "rgw/vers"])).stdout)[0];
  assert.equal(j?.["versioning"], { status: "Enabled", MFADelete: "" });
});

version("should refuse an object, a missing target and a local path as usage errors", async () => {
  const obj = await mc(["version", "info", "rgw/vers/some/object"]);
  assert.is(obj.code, 1);
  assert.match(obj.stderr, /^mc: <ERROR> Invalid command usage, version info takes ALIAS\/BUCKET, not an object/);
  const none = await mc(["version", "enable"]);
  assert.is(none.code, 1);
  assert.match(none.stderr, /Invalid command usage, version enable needs a TARGET/);
  const local = await mc(["version", "enable", "./here"]);
  assert.is(local.code, 1);
  assert.match(local.stderr, /is not an S3 target/);
});

version("should report a missing bucket with the server's code", async () => {
  const r = await mc(["version", "enable", "rgw/no-such-bucket", "--json"]);
  assert.is(r.code, 1);
  assert.is(errorCode(r.stdout), "NoSuchBucket");
  const t = await mc(["version", "info", "rgw/no-such-bucket"]);
  assert.is(t.code, 1);
  assert.match(t.stderr, /^mc: <ERROR> Unable to get versioning of `rgw\/no-such-bucket`\. The specified bucket does not exist\.\n$/);
});

version.run();

// ---

const round = suite("ls --versions, rm --version-id and undo");
let v1 = "";
let v2 = "";

round("should list two versions, newest first, with ordinals :: json and text", async () => {
  await put("rgw/vers/f.txt", "one");
  await put("rgw/vers/f.txt", "two two");
  const list = await versionsOf("rgw/vers/f.txt");
  assert.is(list.length, 2);
  assert.equal(list.map((v) => [v.key, v.versionOrdinal, v.isDeleteMarker ?? false]), [["f.txt", 2, false], ["f.txt", 1, false]]);
  v2 = list[0]?.versionId ?? "";
  v1 = list[1]?.versionId ?? "";
  assert.ok(v1 && v2 && v1 !== v2 && v1 !== "null");
  const text = await mc(["ls", "--versions", "rgw/vers/"]);
  const lines = text.stdout.trimEnd().split("\n");
  assert.is(lines.length, 2);
  assert.match(lines[0] ?? "", new RegExp(`^\\[[^\\]]+\\]      7B STANDARD ${esc(v2)} v2 PUT f\\.txt$`), text.stdout);
  assert.match(lines[1] ?? "", new RegExp(`^\\[[^\\]]+\\]      3B STANDARD ${esc(v1)} v1 PUT f\\.txt$`), text.stdout);
});

round("should put a delete marker on top on rm, shown as DEL", async () => {
  const rm = await mc(["rm", "rgw/vers/f.txt"]);
  assert.is(rm.code, 0, rm.stderr);
  assert.match(rm.stdout, /^Created delete marker `rgw\/vers\/f\.txt` \(versionId=.+\)\n$/);
  const list = await versionsOf("rgw/vers/f.txt");
  assert.equal(list.map((v) => [v.versionOrdinal, v.isDeleteMarker ?? false]), [[3, true], [2, false], [1, false]]);
  assert.is((await mc(["cat", "rgw/vers/f.txt"])).code, 1);
});

round("should change nothing with undo --dry-run", async () => {
  const r = await mc(["undo", "--dry-run", "rgw/vers/f.txt"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "✓ Last delete of `f.txt` is reverted.\n");
  assert.is((await versionsOf("rgw/vers/f.txt")).length, 3);
  assert.is((await mc(["cat", "rgw/vers/f.txt"])).code, 1);
});

round("should undo the DELETE: the marker goes, the object is back :: json", async () => {
  const r = await mc(["undo", "rgw/vers/f.txt", "--json"]);
  assert.is(r.code, 0, r.stderr);
  const [msg] = jsonLines(r.stdout);
  assert.is(msg?.["status"], "success");
  assert.is(msg?.["key"], "f.txt");
  assert.is(msg?.["isDeleteMarker"], true);
  assert.is(await cat("rgw/vers/f.txt"), "two two");
  assert.equal((await versionsOf("rgw/vers/f.txt")).map((v) => v.versionId), [v2, v1]);
});

round("should undo the PUT: the previous version becomes current", async () => {
  const r = await mc(["undo", "rgw/vers/f.txt"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, `✓ Last upload of \`f.txt\` (vid=${v2}) is reverted.\n`);
  assert.is(await cat("rgw/vers/f.txt"), "one");
  assert.equal((await versionsOf("rgw/vers/f.txt")).map((v) => v.versionId), [v1]);
});

round("should undo the last N changes of every object under a prefix with -r --force --last 2", async () => {
  await put("rgw/vers/dir/a", "a1");
  await put("rgw/vers/dir/a", "a2");
  await put("rgw/vers/dir/a", "a3");
  await put("rgw/vers/dir/b", "b1");
  assert.is((await mc(["rm", "rgw/vers/dir/b"])).code, 0);
  const r = await mc(["undo", "-r", "--force", "--last", "2", "rgw/vers/dir/"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout.trimEnd().split("\n").length, 4);
  assert.is(await cat("rgw/vers/dir/a"), "a1");
  // b had a PUT and a DELETE: both undone, nothing is left.
  assert.is((await versionsOf("rgw/vers/dir/b")).length, 0);
});

round("should remove one version with rm --version-id", async () => {
  await put("rgw/vers/f.txt", "three");
  const r = await mc(["rm", "--version-id", v1, "rgw/vers/f.txt"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, `Removed \`rgw/vers/f.txt\` (versionId=${v1}).\n`);
  const list = await versionsOf("rgw/vers/f.txt");
  assert.is(list.length, 1);
  assert.not.equal(list[0]?.versionId, v1);
  assert.is(await cat("rgw/vers/f.txt"), "three");
});

round("should take a version id that begins with a dash as the value of --vid (RGW makes such ids)", async () => {
  const cat1 = await mc(["cat", "--vid", "-NoSuchVersion1", "rgw/vers/f.txt"]);
  assert.is(cat1.code, 1);
  assert.match(cat1.stderr, /^mc: <ERROR> Unable to /, cat1.stderr);
  // S3 answers a delete of a version that does not exist with success.
  const rm = await mc(["rm", "--version-id", "-NoSuchVersion1", "rgw/vers/f.txt"]);
  assert.is(rm.code, 0, rm.stderr);
  assert.is(rm.stdout, "Removed `rgw/vers/f.txt` (versionId=-NoSuchVersion1).\n");
  assert.is(await cat("rgw/vers/f.txt"), "three");
});

round("should remove every version with rm --versions --force", async () => {
  await put("rgw/vers/g.txt", "1");
  await put("rgw/vers/g.txt", "2");
  const refused = await mc(["rm", "--versions", "rgw/vers/g.txt"]);
  assert.is(refused.code, 1);
  assert.match(refused.stderr, /--force/);
  const r = await mc(["rm", "--versions", "--force", "rgw/vers/g.txt"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout.trimEnd().split("\n").length, 2);
  assert.is((await versionsOf("rgw/vers/g.txt")).length, 0);
});

round("should refuse undo on a bucket without versioning, and bad flags", async () => {
  assert.is((await mc(["mb", "rgw/plain"])).code, 0);
  await put("rgw/plain/x", "x");
  const r = await mc(["undo", "rgw/plain/x"]);
  assert.is(r.code, 1);
  assert.match(r.stderr, /^mc: <ERROR> Undo command works only with S3 versioned-enabled buckets; `rgw\/plain` is un-versioned\.\n$/);
  assert.is(await cat("rgw/plain/x"), "x");
  const last = await mc(["undo", "--last", "0", "rgw/vers/f.txt"]);
  assert.is(last.code, 1);
  assert.match(last.stderr, /Invalid command usage, --last value should be a positive integer/);
  const force = await mc(["undo", "-r", "rgw/vers/"]);
  assert.is(force.code, 1);
  assert.match(force.stderr, /you need to provide --force/);
  const missing = await mc(["undo", "rgw/vers/never-written"]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /Unable to find any object version to undo/);
  assert.is(await cat("rgw/vers/f.txt"), "three");
});

round.after(async () => {
  await fx.stop();
});

round.run();
