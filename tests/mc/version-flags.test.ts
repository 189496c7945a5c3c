// rm --stdin/--non-current, stat --rewind/--versions/--verbose/--no-list,
// tag list|set|remove -r/--versions/--rewind and tag set --exclude-folders
// (issue 22) against Ceph RGW; botocore and aws s3api are the witnesses.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "./mc-runner.js";
import { startWitness } from "./s3-witness.js";

const exec = promisify(execFile);
const fx = await startMcFixture();
const { mc, rgw } = fx;
const w = startWitness(rgw);
const aws = async (...args: string[]): Promise<string> => {
  const { stdout } = await exec("/usr/bin/aws", ["--endpoint-url", rgw.endpoint, ...args], {
    env: { ...process.env, AWS_ACCESS_KEY_ID: rgw.accessKey, AWS_SECRET_ACCESS_KEY: rgw.secretKey, AWS_DEFAULT_REGION: rgw.region },
  });
  return stdout;
};
const tagsOf = async (key: string, versionId: string): Promise<Record<string, string>> => {
  const out = JSON.parse(await aws("s3api", "get-object-tagging", "--bucket", "vflags", "--key", key, `--version-id=${versionId}`)) as { TagSet: { Key: string; Value: string }[] };
  return Object.fromEntries(out.TagSet.map((t) => [t.Key, t.Value]));
};
const put = async (key: string, body: string): Promise<void> => {
  const r = await mc(["pipe", `rgw/vflags/${key}`], { input: body });
  assert.is(r.code, 0, r.stderr);
};
let between = "";

const flags = suite("version flags");

flags.before(async () => {
  assert.is((await mc(["mb", "--with-versioning", "rgw/vflags"])).code, 0);
  await put("doc.txt", "one");
  await put("doc.txt", "two!");
  await aws("s3api", "put-object", "--bucket", "vflags", "--key", "dir/");
  await put("dir/a b.txt", "a");
  await new Promise((resolve) => setTimeout(resolve, 1100));
  between = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 1100));
  await put("doc.txt", "three");
});

flags("should stat every version, the past, and without listing", async () => {
  const versions = (await w.versions("vflags", "doc.txt")).filter((v) => v.key === "doc.txt");
  const stat = jsonLines((await mc(["stat", "--json", "--versions", "rgw/vflags/doc.txt"])).stdout);
  assert.equal(stat.map((s) => [s["versionID"], s["size"]]), versions.map((v, i) => [v.versionId, [5, 4, 3][i]]));
  const past = jsonLines((await mc(["stat", "--json", "--rewind", between, "rgw/vflags/doc.txt"])).stdout)[0];
  assert.is(past?.["size"], 4);
  assert.is(past?.["versionID"], versions[1]?.versionId);
  // A prefix is a folder only when listing is allowed.
  assert.is((await mc(["stat", "rgw/vflags/dir/a"])).code, 1);
  const listed = await mc(["stat", "--json", "rgw/vflags/dir"]);
  assert.is(listed.code, 0, listed.stderr);
  const noList = await mc(["stat", "--no-list", "rgw/vflags/dir"]);
  assert.is(noList.code, 1);
  assert.match(noList.stderr, /Object does not exist/);
  assert.is((await mc(["stat", "--no-list", "-r", "rgw/vflags/"])).code, 1);
  const verbose = await mc(["stat", "--verbose", "rgw/vflags"]);
  assert.is(verbose.code, 0, verbose.stderr);
  assert.match(verbose.stdout, /Properties:/);
});

flags("should tag every version of every object with -r --versions, folder objects unless excluded :: aws s3api", async () => {
  const r = await mc(["tag", "set", "-r", "--versions", "--exclude-folders", "rgw/vflags/", "team=a"]);
  assert.is(r.code, 0, r.stderr);
  const all = (await w.versions("vflags")).filter((v) => v.kind === "version");
  for (const v of all) assert.equal(await tagsOf(v.key, v.versionId), v.key === "dir/" ? {} : { team: "a" }, `${v.key} ${v.versionId}`);
  assert.is((await mc(["tag", "set", "-r", "rgw/vflags/dir/", "team=b"])).code, 0);
  const folder = all.find((v) => v.key === "dir/");
  assert.equal(await tagsOf("dir/", folder?.versionId ?? ""), { team: "b" }, "folder objects are tagged without --exclude-folders");
  const list = jsonLines((await mc(["tag", "list", "--json", "--versions", "rgw/vflags/doc.txt"])).stdout);
  assert.is(list.length, 3);
  assert.ok(list.every((l) => (l["tagset"] as Record<string, string>)["team"] === "a"));
  // --rewind: the version that existed then.
  const old = all.find((v) => v.key === "doc.txt" && !v.isLatest && v === all.filter((x) => x.key === "doc.txt")[1]);
  assert.is((await mc(["tag", "set", "--rewind", between, "rgw/vflags/doc.txt", "age=old"])).code, 0);
  assert.equal(await tagsOf("doc.txt", old?.versionId ?? ""), { age: "old" });
  const latest = all.find((v) => v.key === "doc.txt" && v.isLatest);
  assert.equal(await tagsOf("doc.txt", latest?.versionId ?? ""), { team: "a" });
  assert.is((await mc(["tag", "remove", "-r", "--versions", "rgw/vflags/"])).code, 0);
  for (const v of all) assert.equal(await tagsOf(v.key, v.versionId), {});
  const bad = await mc(["tag", "set", "--exclude-folders", "rgw/vflags/doc.txt", "a=b"]);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /--exclude-folders needs --recursive/);
  const both = await mc(["tag", "list", "-r", "--vid", "x", "rgw/vflags/"]);
  assert.is(both.code, 1);
});

flags("should remove only non-current versions with rm --versions --non-current :: botocore", async () => {
  const before = await w.versions("vflags", "doc.txt");
  assert.is(before.length, 3);
  const no = await mc(["rm", "--non-current", "--force", "rgw/vflags/doc.txt"]);
  assert.is(no.code, 1);
  assert.match(no.stderr, /--non-current needs --versions/);
  const r = await mc(["rm", "--versions", "--non-current", "--force", "rgw/vflags/doc.txt"]);
  assert.is(r.code, 0, r.stderr);
  const after = await w.versions("vflags", "doc.txt");
  assert.equal(after.map((v) => [v.versionId, v.isLatest]), before.filter((v) => v.isLatest).map((v) => [v.versionId, true]));
  assert.is((await w.get("vflags", "doc.txt")).size, 5);
});

flags("should remove the objects named on standard input with rm --stdin :: botocore", async () => {
  await put("s/one.txt", "1");
  await put("s/two 2.txt", "2");
  await put("s/keep.txt", "k");
  const refused = await mc(["rm", "--stdin"], { input: "rgw/vflags/s/one.txt\n" });
  assert.is(refused.code, 1);
  assert.match(refused.stderr, /removal requires --force flag/);
  const r = await mc(["rm", "--stdin", "--force"], { input: "rgw/vflags/s/one.txt\n\nrgw/vflags/s/two 2.txt\n" });
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "Created delete marker `rgw/vflags/s/one.txt` (versionId=" + r.stdout.split("versionId=")[1]?.split(")")[0] + ")\n" + r.stdout.split("\n")[1] + "\n");
  assert.equal((await w.list("vflags", "s/")).map((o) => o.key), ["s/keep.txt"]);
  const empty = await mc(["rm", "--stdin", "--force"], { input: "\n" });
  assert.is(empty.code, 1);
  assert.match(empty.stderr, /rm --stdin read no TARGET from standard input/);
});

flags.after(async () => {
  w.close();
  await fx.stop();
});

flags.run();
