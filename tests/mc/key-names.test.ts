// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// The key-name torture corpus (tests/fixtures/key-names.ts) through every
// data command of mc, in every direction it supports, against Ceph RGW. Each
// step is judged by botocore (s3-witness) or by the file system, never by mc.
//
// Skipped, and only for the file directions: the names whose `local` says why
// a file system cannot hold them (an empty, `.` or `..` path segment, or a
// component over 255 bytes). mc must refuse those, name them, and write
// nothing anywhere else. The 1,024-byte name fills S3's key limit, so the
// steps that copy under a prefix leave that one name out.
import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { assertBucket, assertTree, bodyOf, byKey, corpus, expectedLs, localNames, mapLimit, md5, prefixable, treePaths, writeTree } from "./key-names-support.js";
import { jsonLines, spawnMc, startMcFixture } from "./mc-runner.js";
import { startWitness } from "./s3-witness.js";

const started = Date.now();
const fx = await startMcFixture();
const { mc, work, rgw } = fx;
const w = startWitness(rgw);
const names = corpus.map((k) => k.name);
const s3Only = corpus.filter((k) => k.local !== undefined);
const files = join(work, "files");
const url = (bucket: string, name: string, alias = "rgw"): string => `${alias}/${bucket}/${name}`;
const baseName = (name: string): string => name.slice(name.lastIndexOf("/") + 1);
/** A name that is also a folder of other names (`..` and `../dotdot-segment`). */
const isFolderToo = (name: string): boolean => names.some((n) => n.startsWith(`${name}/`));
/** mc over every name, several processes at a time (commands that take one object). */
const each = (fn: (name: string, i: number) => Promise<void>): Promise<void[]> => mapLimit(names, 4, (name, i) => fn(name, i));

const setup = suite("key names: the corpus in place");

setup("should hold the corpus in a bucket, a prefix and a folder", async () => {
  assert.ok(corpus.length >= 80, `${corpus.length} names`);
  assert.is((await mc(["alias", "set", "rgw2", rgw.endpoint, rgw.accessKey, rgw.secretKey])).code, 0);
  for (const b of ["kn-src", "kn-one", "kn-up", "kn-x", "kn-y", "kn-mv", "kn-mirror", "kn-mfile", "kn-watch", "kn-put", "kn-pipe", "kn-lock", "kn-ver"]) {
    await w.createBucket(b, { lock: b === "kn-lock", versioning: b === "kn-ver" });
  }
  for (const k of corpus) await w.put("kn-src", k.name, bodyOf(k.name));
  for (const k of prefixable) await w.put("kn-one", `a/${k.name}`, bodyOf(k.name));
  await writeTree(files, localNames);
  await assertBucket(w, "kn-src", "", corpus);
});

setup.run();

// ---

const copies = suite("key names: cp, mv and mirror in every direction");

copies("should upload every local name :: file -> S3 (cp -r)", async () => {
  const r = await mc(["cp", "-r", `${files}/`, "rgw/kn-up/"]);
  assert.is(r.code, 0, r.stderr);
  await assertBucket(w, "kn-up", "", localNames);
});

copies("should download every local name and refuse the others by name :: S3 -> file (cp -r)", async () => {
  const down = join(work, "down", "inner");
  const r = await mc(["cp", "-r", "rgw/kn-src/", `${down}/`]);
  assert.is(r.code, 1, "the names a file system cannot hold fail the run");
  for (const k of s3Only) assert.match(r.stderr, `Failed to copy \`rgw/kn-src/${k.name}\``);
  assert.is(r.stderr.split("\n").filter((l) => l.startsWith("mc: <ERROR>")).length, s3Only.length, r.stderr);
  await assertTree(down, localNames);
  // `../dotdot-segment` must not have climbed out of the target folder.
  assert.equal(await readdir(join(work, "down")), ["inner"]);
});

copies("should copy within one bucket :: S3 -> S3 (cp -r, server side)", async () => {
  const r = await mc(["cp", "-r", "rgw/kn-one/a/", "rgw/kn-one/b/"]);
  assert.is(r.code, 0, r.stderr);
  await assertBucket(w, "kn-one", "b/", prefixable);
});

copies("should copy across buckets :: S3 -> S3 (cp -r)", async () => {
  const r = await mc(["cp", "-r", "rgw/kn-src/", "rgw/kn-x/"]);
  assert.is(r.code, 0, r.stderr);
  await assertBucket(w, "kn-x", "", corpus);
});

copies("should copy across aliases :: S3 -> S3 (cp -r, streamed)", async () => {
  const r = await mc(["cp", "-r", "rgw/kn-src/", "rgw2/kn-y/"]);
  assert.is(r.code, 0, r.stderr);
  await assertBucket(w, "kn-y", "", corpus);
});

copies("should copy many sources into a folder and single names to exact keys :: S3 -> S3 (cp SRC... DIR, cp SRC DST)", async () => {
  // Sources land under their base names: one name per base name.
  const bases = new Map<string, (typeof corpus)[number]>();
  for (const k of prefixable) if (!bases.has(baseName(k.name))) bases.set(baseName(k.name), k);
  const r = await mc(["cp", ...[...bases.values()].map((k) => url("kn-src", k.name)), "rgw/kn-one/c/"]);
  assert.is(r.code, 0, r.stderr);
  const listed = new Map((await w.list("kn-one", "c/")).map((o) => [o.key, o.etag]));
  assert.equal([...listed.keys()].sort(byKey), [...bases.keys()].map((b) => `c/${b}`).sort(byKey));
  for (const [b, k] of bases) assert.is(listed.get(`c/${b}`), md5(bodyOf(k.name)), JSON.stringify(k.name));
  // The issue's own case and its class: one object to an exact key.
  const hard = ["space in name.txt", "char-%-mid", "char-+-mid", "char-#-mid", "cafe\u0301.txt", "emoji-😀🚀.txt", "x/..", "/leading-slash", "lit-%2F-slash"];
  await mapLimit(hard, 4, async (name) => {
    const one = await mc(["cp", url("kn-src", name), url("kn-one", `d/${name}`)]);
    assert.is(one.code, 0, `${JSON.stringify(name)}: ${one.stderr}`);
  });
  await assertBucket(w, "kn-one", "d/", corpus.filter((k) => hard.includes(k.name)));
});

copies("should move everything and leave nothing behind :: S3 -> S3 (mv -r)", async () => {
  const r = await mc(["mv", "-r", "rgw/kn-x/", "rgw/kn-mv/"]);
  assert.is(r.code, 0, r.stderr);
  await assertBucket(w, "kn-mv", "", corpus);
  assert.equal(await w.list("kn-x"), []);
});

copies("should mirror every object and remove only the extra one :: S3 -> S3 (mirror, --remove)", async () => {
  const r = await mc(["mirror", "rgw/kn-src", "rgw/kn-mirror"]);
  assert.is(r.code, 0, r.stderr);
  await assertBucket(w, "kn-mirror", "", corpus);
  await w.put("kn-mirror", "only here %+# é", Buffer.from("extra"));
  const again = await mc(["mirror", "--remove", "--json", "rgw/kn-src", "rgw/kn-mirror"]);
  assert.is(again.code, 0, again.stderr);
  assert.equal(jsonLines(again.stdout).filter((o) => o["source"] === "").map((o) => o["target"]), ["rgw/kn-mirror/only here %+# é"]);
  await assertBucket(w, "kn-mirror", "", corpus);
});

copies("should mirror files up and objects down :: file -> S3, S3 -> file (mirror)", async () => {
  const up = await mc(["mirror", files, "rgw/kn-mfile"]);
  assert.is(up.code, 0, up.stderr);
  await assertBucket(w, "kn-mfile", "", localNames);
  const down = await mc(["mirror", "rgw/kn-src", join(work, "mdown")]);
  assert.is(down.code, 1, "the names a file system cannot hold fail the run");
  for (const k of s3Only) assert.match(down.stderr, `Failed to copy \`rgw/kn-src/${k.name}\``);
  await assertTree(join(work, "mdown"), localNames);
});

copies("should mirror a new file with a hard name as it appears :: file -> S3 (mirror --watch)", async () => {
  const dir = join(work, "watched");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "seed.txt"), "seed");
  const child = spawnMc(["-C", fx.configDir, "mirror", "--watch", dir, "rgw/kn-watch"]);
  try {
    const appear = async (key: string): Promise<void> => {
      for (let i = 0; i < 100 && !(await w.list("kn-watch").catch(() => [])).some((o) => o.key === key); i++) await new Promise((r) => setTimeout(r, 200));
    };
    await appear("seed.txt");
    const name = "watch é %+# ?&=.txt";
    await writeFile(join(dir, name), bodyOf(name));
    await appear(name);
    const got = await w.get("kn-watch", name);
    assert.is(got.md5, md5(bodyOf(name)));
  } finally {
    child.kill("SIGTERM");
  }
});

copies.run();

// ---

const reads = suite("key names: ls, stat, cat, head, get, share, find, du, diff, tree");

reads("should list the corpus recursively in S3's order :: ls -r --json", async () => {
  const r = await mc(["ls", "-r", "--json", "rgw/kn-src/"]);
  assert.is(r.code, 0, r.stderr);
  assert.equal(
    jsonLines(r.stdout).map((o) => o["key"]),
    (await w.list("kn-src")).map((o) => o.key),
  );
});

reads("should list each name as upstream does: it and every key starting with it :: ls NAME (one process)", async () => {
  const r = await mc(["ls", "--json", ...names.map((n) => url("kn-src", n))]);
  assert.is(r.code, 0, r.stderr);
  const expected = names.flatMap((n) => expectedLs(names, n).map((key) => `${rgw.endpoint}/kn-src/${n} ${key}`));
  assert.equal(
    jsonLines(r.stdout).map((o) => `${String(o["url"])} ${String(o["key"])}`),
    expected,
  );
});

reads("should stat every name :: stat --json (one process)", async () => {
  const r = await mc(["stat", "--json", ...names.map((n) => url("kn-src", n))]);
  assert.is(r.code, 0, r.stderr);
  const listed = new Map((await w.list("kn-src")).map((o) => [o.key, o]));
  assert.equal(
    jsonLines(r.stdout).map((o) => [o["name"], o["size"], o["etag"]]),
    names.map((n) => [n.replace(/\/$/, "").slice(n.lastIndexOf("/") + 1), listed.get(n)?.size, listed.get(n)?.etag]),
  );
});

reads("should cat and head every name :: cat, head -n 1 (one process each)", async () => {
  const cat = await mc(["cat", ...names.map((n) => url("kn-src", n))]);
  assert.is(cat.code, 0, cat.stderr);
  assert.is(cat.stdout, Buffer.concat(names.map((n) => bodyOf(n))).toString());
  const head = await mc(["head", "-n", "1", ...names.map((n) => url("kn-src", n))]);
  assert.is(head.stdout, names.map((n) => bodyOf(n).toString().split("\n")[0] + "\n").join(""));
});

reads("should get every name into a file of our choosing :: get", async () => {
  const out = join(work, "got");
  await mkdir(out, { recursive: true });
  await each(async (name, i) => {
    const r = await mc(["get", url("kn-src", name), join(out, String(i))]);
    assert.is(r.code, 0, `${JSON.stringify(name)}: ${r.stderr}`);
    assert.ok((await readFile(join(out, String(i)))).equals(bodyOf(name)), JSON.stringify(name));
  });
});

reads("should share every name for curl :: share download -r", async () => {
  const r = await mc(["share", "download", "--json", "-r", "rgw/kn-src/"]);
  assert.is(r.code, 0, r.stderr);
  const shares = new Map(jsonLines(r.stdout).map((o) => [String(o["url"]).slice(`${rgw.endpoint}/kn-src/`.length), String(o["share"])]));
  assert.equal([...shares.keys()].sort(byKey), [...names].sort(byKey));
  const out = join(work, "shared");
  await mkdir(out, { recursive: true });
  // One curl for all: --path-as-is keeps `.`/`..` segments as the signature covers them.
  const args = names.flatMap((n, i) => ["--path-as-is", "-o", join(out, String(i)), shares.get(n) ?? ""]);
  const status = await new Promise<string>((resolve) => {
    const child = spawn("curl", ["-s", "-w", "%{http_code}\\n", ...args]);
    let text = "";
    child.stdout.on("data", (c: Buffer) => (text += c.toString()));
    child.on("close", () => resolve(text));
  });
  assert.equal(status.trim().split("\n"), names.map(() => "200"));
  for (const [i, name] of names.entries()) assert.ok((await readFile(join(out, String(i)))).equals(bodyOf(name)), JSON.stringify(name));
});

reads("should find every name, and by a wildcard :: find", async () => {
  const all = await mc(["find", "rgw/kn-src", "--json"]);
  assert.is(all.code, 0, all.stderr);
  assert.equal(jsonLines(all.stdout).map((o) => o["key"]).sort(), names.map((n) => url("kn-src", n)).sort());
  const some = await mc(["find", "rgw/kn-src", "--name", "char-*-mid"]);
  assert.equal(some.stdout.split("\n").filter(Boolean).sort(), names.filter((n) => /^char-.*-mid$/s.test(n)).map((n) => url("kn-src", n)).sort());
});

reads("should count every name :: du --json", async () => {
  const r = await mc(["du", "--json", "rgw/kn-src"]);
  const total = jsonLines(r.stdout).at(-1) ?? {};
  assert.is(total["objects"], names.length);
  assert.is(total["size"], names.reduce((s, n) => s + bodyOf(n).length, 0));
});

reads("should tell exactly the names a folder lacks :: diff S3 file", async () => {
  const r = await mc(["diff", "--json", "rgw/kn-src", join(work, "down", "inner")]);
  assert.is(r.code, 0, r.stderr);
  assert.equal(
    jsonLines(r.stdout).map((o) => [o["diff"], o["first"]]),
    s3Only.map((k) => [5, url("kn-src", k.name)]).sort((a, b) => byKey(String(a[1]), String(b[1]))),
  );
  assert.is((await mc(["diff", "rgw/kn-src", "rgw/kn-mirror"])).stdout, "");
});

reads("should draw every name in the tree :: tree -f", async () => {
  const r = await mc(["tree", "-f", "rgw/kn-src"]);
  assert.is(r.code, 0, r.stderr);
  const expected = new Set(names.flatMap((n) => n.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/"))));
  assert.equal(treePaths(r.stdout).sort(byKey), [...expected].sort(byKey));
});

reads("should page through more than 1,000 hard names :: ls -r, ls -r --versions", async () => {
  const keys = Array.from({ length: 1005 }, (_, i) => `page ${String(i).padStart(4, "0")} %+&=#é.txt`);
  await w.createBucket("kn-page", { versioning: true });
  await mapLimit(keys, 8, (k) => w.put("kn-page", k, Buffer.from(k)));
  const plain = await mc(["ls", "-r", "--json", "rgw/kn-page/"]);
  assert.equal(jsonLines(plain.stdout).map((o) => o["key"]), keys);
  const versions = await mc(["ls", "-r", "--versions", "--json", "rgw/kn-page/"]);
  assert.equal(jsonLines(versions.stdout).map((o) => o["key"]), keys);
});

reads.run();

// ---

const writes = suite("key names: put, pipe, tag, retention, legalhold, rm, undo, --rewind");

writes("should put and pipe every name :: put, pipe", async () => {
  const flat = join(work, "flat");
  await mkdir(flat, { recursive: true });
  // An existing folder as TARGET receives the file inside it (cp-url rules): names that are
  // also folders (`.`, `..`) go first, while nothing is below them yet.
  for (const batch of [names.filter(isFolderToo), names.filter((n) => !isFolderToo(n))]) {
    await mapLimit(batch, 4, async (name) => {
      const i = names.indexOf(name);
      await writeFile(join(flat, String(i)), bodyOf(name));
      const put = await mc(["put", join(flat, String(i)), url("kn-put", name)]);
      assert.is(put.code, 0, `${JSON.stringify(name)}: ${put.stderr}`);
      const pipe = await mc(["pipe", url("kn-pipe", name)], { input: bodyOf(name) });
      assert.is(pipe.code, 0, `${JSON.stringify(name)}: ${pipe.stderr}`);
    });
  }
  await assertBucket(w, "kn-put", "", corpus);
  await assertBucket(w, "kn-pipe", "", corpus);
});

writes("should tag every name :: tag set", async () => {
  await each(async (name) => {
    const r = await mc(["tag", "set", url("kn-put", name), "team=a b&k=%2B+"]);
    assert.is(r.code, 0, `${JSON.stringify(name)}: ${r.stderr}`);
  });
  for (const name of names) assert.equal(await w.tagging("kn-put", name), { team: "a b", k: "+ " }, JSON.stringify(name));
});

writes("should lock every name :: retention set -r, legalhold set -r", async () => {
  assert.is((await mc(["cp", "-r", "rgw/kn-src/", "rgw/kn-lock/"])).code, 0);
  const ret = await mc(["retention", "set", "-r", "governance", "1d", "rgw/kn-lock/"]);
  assert.is(ret.code, 0, ret.stderr);
  const hold = await mc(["legalhold", "set", "-r", "rgw/kn-lock/"]);
  assert.is(hold.code, 0, hold.stderr);
  for (const name of names) {
    assert.is((await w.retention("kn-lock", name)).mode, "GOVERNANCE", JSON.stringify(name));
    assert.is(await w.legalHold("kn-lock", name), "ON", JSON.stringify(name));
  }
});

writes("should remove every name, one by one and as a folder :: rm (one process), rm -r", async () => {
  const r = await mc(["rm", ...names.map((n) => url("kn-y", n, "rgw2"))]);
  assert.is(r.code, 0, r.stderr);
  assert.equal(await w.list("kn-y"), []);
  const tree = await mc(["rm", "-r", "--force", "rgw/kn-one/b/"]);
  assert.is(tree.code, 0, tree.stderr);
  assert.equal(await w.list("kn-one", "b/"), []);
  await assertBucket(w, "kn-one", "a/", prefixable);
});

writes("should undo the removal of every name :: rm, undo -r", async () => {
  for (const n of names) await w.put("kn-ver", n, bodyOf(n));
  assert.is((await mc(["rm", ...names.map((n) => url("kn-ver", n))])).code, 0);
  assert.equal(await w.list("kn-ver"), []);
  const r = await mc(["undo", "-r", "--force", "rgw/kn-ver/"]);
  assert.is(r.code, 0, r.stderr);
  await assertBucket(w, "kn-ver", "", corpus);
});

writes("should read every name as it was :: cat --rewind, ls -r --rewind", async () => {
  await new Promise((r) => setTimeout(r, 1100));
  const before = new Date();
  await new Promise((r) => setTimeout(r, 1100));
  for (const n of names) await w.put("kn-ver", n, bodyOf(n, 2));
  const cat = await mc(["cat", "--rewind", before.toISOString(), ...names.map((n) => url("kn-ver", n))]);
  assert.is(cat.code, 0, cat.stderr);
  assert.is(cat.stdout, Buffer.concat(names.map((n) => bodyOf(n, 1))).toString());
  const ls = await mc(["ls", "-r", "--json", "--rewind", before.toISOString(), "rgw/kn-ver/"]);
  assert.equal(jsonLines(ls.stdout).map((o) => [o["key"], o["etag"]]), [...names].sort(byKey).map((n) => [n, md5(bodyOf(n, 1))]));
});

writes.after(async () => {
  w.close();
  await fx.stop();
  process.stdout.write(`\nkey names: ${corpus.length} names (${s3Only.length} not local), ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
});

writes.run();
