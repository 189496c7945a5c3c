// --rewind on ls, cat, cp, du, tree and rm against Ceph RGW: a versioned bucket
// seen as it was before a second round of writes and deletes.
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "./mc-runner.js";
import { putListed } from "./put-listed.js";

const fx = await startMcFixture();
const { mc } = fx;
const put = (target: string, body: string): Promise<string> => putListed(mc, target, body);
// Last-Modified has one-second precision on some paths: keep the rounds apart.
const nextSecond = (): Promise<void> => new Promise((done) => setTimeout(done, 1100));

interface Ctx {
  then: string;
  v1: { a: string; b: string; deep: string };
}
const rewind = suite<Ctx>("--rewind on a versioned bucket", { then: "", v1: { a: "", b: "", deep: "" } });

rewind.before(async (ctx) => {
  assert.is((await mc(["mb", "--with-versioning", "rgw/past"])).code, 0);
  ctx.v1 = { a: await put("rgw/past/a.txt", "a one"), b: await put("rgw/past/b.txt", "b one"), deep: await put("rgw/past/dir/deep.txt", "deep") };
  await nextSecond();
  ctx.then = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  await nextSecond();
  await put("rgw/past/a.txt", "a two, longer");
  assert.is((await mc(["rm", "rgw/past/b.txt"])).code, 0);
  await put("rgw/past/c.txt", "c new");
});

rewind("should list the bucket as it was: the old a.txt, b.txt before its delete, no c.txt :: json", async ({ then, v1 }) => {
  const r = await mc(["ls", "-r", "--json", "--rewind", then, "rgw/past"]);
  assert.is(r.code, 0, r.stderr);
  const rows = jsonLines(r.stdout).map((o) => [o["key"], o["size"], o["versionId"]]);
  assert.equal(rows, [["a.txt", 5, v1.a], ["b.txt", 5, v1.b], ["dir/deep.txt", 4, v1.deep]]);
  const now = jsonLines((await mc(["ls", "-r", "--json", "rgw/past"])).stdout).map((o) => o["key"]);
  assert.equal(now, ["a.txt", "c.txt", "dir/deep.txt"]);
});

rewind("should list only the versions written by then with --versions", async ({ then, v1 }) => {
  const r = await mc(["ls", "--versions", "--json", "--rewind", then, "rgw/past/a.txt"]);
  assert.is(r.code, 0, r.stderr);
  assert.equal(jsonLines(r.stdout).map((o) => o["versionId"]), [v1.a]);
});

rewind("should cat the old content, and fail for a key deleted or not yet written then", async ({ then }) => {
  assert.is((await mc(["cat", "--rewind", then, "rgw/past/a.txt"])).stdout, "a one");
  assert.is((await mc(["cat", "--rewind", then, "rgw/past/b.txt"])).stdout, "b one");
  const c = await mc(["cat", "--rewind", then, "rgw/past/c.txt"]);
  assert.is(c.code, 1);
  assert.match(c.stderr, /^mc: <ERROR> Unable to read from `rgw\/past\/c\.txt`\. Object does not exist\./, c.stderr);
  const before = await mc(["cat", "--rewind", "2001.01.01", "rgw/past/a.txt"]);
  assert.is(before.code, 1);
  assert.is((await mc(["cat", "rgw/past/a.txt"])).stdout, "a two, longer", "the present is untouched");
});

rewind("should copy the past out with cp -r --rewind, and into the present of the same bucket", async ({ then }) => {
  const out = await mkdtemp(join(fx.work, "rewind-"));
  const r = await mc(["cp", "-r", "--rewind", then, "rgw/past/", `${out}/`]);
  assert.is(r.code, 0, r.stderr);
  assert.equal((await readdir(out)).sort(), ["a.txt", "b.txt", "dir"]);
  assert.is(await readFile(join(out, "a.txt"), "utf8"), "a one");
  assert.is(await readFile(join(out, "b.txt"), "utf8"), "b one");
  // Bringing a deleted object back: the copy becomes a new current version.
  const back = await mc(["cp", "--rewind", then, "rgw/past/b.txt", "rgw/past/b-restored.txt"]);
  assert.is(back.code, 0, back.stderr);
  assert.is((await mc(["cat", "rgw/past/b-restored.txt"])).stdout, "b one");
});

rewind("should sum sizes and draw the tree as they were", async ({ then }) => {
  const du = jsonLines((await mc(["du", "--json", "--rewind", then, "rgw/past"])).stdout);
  assert.equal(du.map((o) => [o["size"], o["objects"]]), [[14, 3]]);
  const tree = await mc(["tree", "-f", "--rewind", then, "rgw/past"]);
  assert.is(tree.code, 0, tree.stderr);
  assert.match(tree.stdout, "b.txt");
  assert.not.match(tree.stdout, "c.txt");
});

rewind("should find every version with find --versions, delete markers left out", async ({ v1 }) => {
  const r = await mc(["find", "rgw/past", "--versions", "--name", "*.txt", "--print", "{base} {version}"]);
  assert.is(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split("\n");
  assert.ok(lines.includes(`a.txt ${v1.a}`), r.stdout);
  assert.ok(lines.includes(`b.txt ${v1.b}`), r.stdout);
  assert.is(lines.filter((l) => l.startsWith("a.txt ")).length, 2);
  assert.is(lines.filter((l) => l.startsWith("b.txt ")).length, 1, "b.txt's delete marker is no object");
});

rewind("should remove only the version that existed then with rm --rewind, and every version up to then with --versions", async ({ then, v1 }) => {
  const one = await mc(["rm", "--rewind", then, "rgw/past/a.txt"]);
  assert.is(one.code, 0, one.stderr);
  assert.is(one.stdout, `Removed \`rgw/past/a.txt\` (versionId=${v1.a}).\n`);
  assert.is((await mc(["cat", "rgw/past/a.txt"])).stdout, "a two, longer", "today's version stays");
  assert.is((await mc(["cat", "--rewind", then, "rgw/past/a.txt"])).code, 1, "then, a.txt is gone now");
  const all = await mc(["rm", "-r", "--versions", "--force", "--rewind", then, "rgw/past/dir/"]);
  assert.is(all.code, 0, all.stderr);
  assert.is((await mc(["ls", "--versions", "--json", "rgw/past/dir/deep.txt"])).stdout, "");
});

rewind("should refuse a bad time, --rewind with --version-id, and mv --rewind, changing nothing", async ({ then, v1 }) => {
  for (const bad of ["yesterday", "2026.13.01", "5x"]) {
    const r = await mc(["ls", "--rewind", bad, "rgw/past"]);
    assert.is(r.code, 1, bad);
    assert.match(r.stderr, `mc: <ERROR> Invalid command usage, invalid --rewind \`${bad}\`;`);
  }
  const both = await mc(["cat", "--rewind", then, "--vid", v1.a, "rgw/past/a.txt"]);
  assert.is(both.code, 1);
  assert.match(both.stderr, "--rewind and --version-id cannot be used together");
  const rmBoth = await mc(["rm", "--rewind", then, "--vid", v1.a, "rgw/past/a.txt"]);
  assert.is(rmBoth.code, 1);
  assert.match(rmBoth.stderr, "--rewind and --version-id cannot be used together");
  const mv = await mc(["mv", "--rewind", then, "rgw/past/a.txt", "rgw/past/moved.txt"]);
  assert.is(mv.code, 1);
  assert.match(mv.stderr, "mv does not take --rewind");
  assert.is((await mc(["cat", "rgw/past/a.txt"])).stdout, "a two, longer");
  assert.is((await mc(["stat", "rgw/past/moved.txt"])).code, 1);
});

rewind.after(() => fx.stop());
rewind.run();
