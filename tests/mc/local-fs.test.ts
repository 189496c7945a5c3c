// mc on the local filesystem only: every file command with its main flags, text and --json.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { chmod, chown, cp, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { cleanEnv, jsonLines, mcBin, repoRoot, runMc, type RunOptions } from "./mc-runner.js";

const configDir = await mkdtemp(join(tmpdir(), "mc-local-config-"));
const work = await mkdtemp(join(tmpdir(), "mc-local-"));
const mc = (args: readonly string[], options: RunOptions = {}): ReturnType<typeof runMc> => runMc(["-C", configDir, ...args], options);
const src = join(work, "src");
const dateRe = String.raw`\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [A-Z+\-0-9]+\]`;

// ---

const files = suite("ls, cp, mv, rm, cat, head, stat on the filesystem");

files.before(async () => {
  await mkdir(join(src, "sub"), { recursive: true });
  await writeFile(join(src, "a.txt"), "alpha\nbeta\ngamma\n");
  await writeFile(join(src, "sub", "b.bin"), Buffer.alloc(1536, 1));
});

files("should list a folder :: text and json", async () => {
  const t = await mc(["ls", src]);
  assert.match(t.stdout, new RegExp(`^${dateRe}     17B a\\.txt\\n${dateRe}      0B sub/\\n$`));
  const r = jsonLines((await mc(["ls", "-r", "--json", src])).stdout);
  assert.equal(r.map((o) => [o["key"], o["size"], o["type"]]), [["a.txt", 17, "file"], ["sub/b.bin", 1536, "file"]]);
});

files("should copy files and folders with cp rules", async () => {
  const dst = join(work, "dst");
  assert.is((await mc(["cp", join(src, "a.txt"), `${dst}/`])).code, 0);
  assert.is(await readFile(join(dst, "a.txt"), "utf8"), "alpha\nbeta\ngamma\n");
  assert.is((await mc(["cp", "-r", src, dst])).code, 0);
  assert.ok((await stat(join(dst, "src", "sub", "b.bin"))).isFile());
  assert.is((await mc(["cp", "-r", `${src}/`, join(work, "flat")])).code, 0);
  assert.ok((await stat(join(work, "flat", "sub", "b.bin"))).isFile());
  const j = jsonLines((await mc(["cp", "--json", join(src, "a.txt"), join(work, "copy.txt")])).stdout);
  assert.is(j[0]?.["target"], join(work, "copy.txt"));
  // No temporary file is left beside the target.
  assert.equal((await readdir(work)).filter((n) => n.includes("mc-part")), []);
});

files("should fail a copy in one line, leaving nothing, when the disk refuses it :: a file where a folder must be, a file-size limit", async () => {
  const blocked = await mc(["cp", join(src, "a.txt"), join(src, "a.txt", "deeper", "x.txt")]);
  assert.equal([blocked.code, blocked.stderr], [1, `mc: <ERROR> Failed to copy \`${join(src, "a.txt")}\`. \`${join(src, "a.txt")}\` is a file, so it cannot hold \`${join(src, "a.txt", "deeper", "x.txt")}\`.\n`]);
  // RLIMIT_FSIZE fails the write half-way (EFBIG), as a full disk fails it (ENOSPC).
  const big = join(work, "big.bin");
  await writeFile(big, Buffer.alloc(3 * 1024 * 1024, 7));
  const out = join(work, "limited");
  await mkdir(out);
  const limited = spawnSync("prlimit", ["--fsize=1000000", process.execPath, mcBin, "-C", configDir, "cp", big, join(out, "big.bin")], { encoding: "utf8", env: cleanEnv() });
  assert.equal([limited.status, limited.stderr], [1, `mc: <ERROR> Failed to copy \`${big}\`. File too large.\n`]);
  assert.equal(await readdir(out), [], "a partial or temporary file was left");
});

files("should refuse to move or copy a file onto itself, keeping it :: the same path, its folder, a hard link, mv -r of a folder onto itself", async () => {
  const dir = join(work, "self");
  await mkdir(dir, { recursive: true });
  const file = join(dir, "keep.txt");
  await writeFile(file, "keep me\n");
  assert.is(spawnSync("ln", [file, join(dir, "hard.txt")]).status, 0);
  const line = (verb: string): string => `mc: <ERROR> Failed to ${verb} \`${file}\`: it is its own target; nothing was changed.\n`;
  // Before, each mv copied the file onto itself and then removed it: the file was gone.
  for (const args of [["mv", file, file], ["mv", file, `${dir}/`], ["mv", file, join(dir, "hard.txt")], ["mv", "-r", `${dir}/`, `${dir}/`], ["cp", file, file]]) {
    const r = await mc(args);
    assert.is(r.code, 1, args.join(" "));
    assert.ok(r.stderr.includes(line(args[0] === "mv" ? "move" : "copy")), `${args.join(" ")}: ${r.stderr}`);
    assert.is(await readFile(file, "utf8"), "keep me\n", args.join(" "));
  }
});

files("should refuse to remove the root folder recursively, as rm(1) does :: /, /./, a link to /", async () => {
  const link = join(work, "to-root");
  await symlink("/", link);
  // Always with --dry-run: were the refusal missing, the run would only list the disk, not empty it.
  for (const target of ["/", "/./", `${link}/`]) {
    const r = await mc(["rm", "-r", "--force", "--dry-run", target], { hangMs: 20_000 });
    assert.equal([r.code, r.stderr, r.stdout], [1, `mc: <ERROR> removing the root folder \`${target}\` is not allowed.\n`, ""], target);
  }
});

files("should refuse a folder given as standard input, writing nothing :: pipe, rm --stdin", () => {
  // Node reads a folder on stdin as empty, without an error: pipe stored an empty file and exited 0.
  const folder = openSync(work, "r");
  try {
    const target = join(work, "from-a-folder.txt");
    for (const args of [["pipe", target], ["rm", "--stdin", "--force"]]) {
      const r = spawnSync(process.execPath, [mcBin, "-C", configDir, ...args], { stdio: [folder, "pipe", "pipe"], encoding: "utf8", env: cleanEnv() });
      assert.equal([r.status, r.stderr], [1, "mc: <ERROR> Unable to read standard input: it is a folder.\n"], args.join(" "));
    }
    assert.not.ok(existsSync(target), "a file was made from the folder");
  } finally {
    closeSync(folder);
  }
});

files("should copy only old files with --older-than", async () => {
  const dir = join(work, "aged");
  await mkdir(dir);
  await writeFile(join(dir, "old.txt"), "o");
  await writeFile(join(dir, "new.txt"), "n");
  const past = new Date(Date.now() - 3 * 86400000);
  await utimes(join(dir, "old.txt"), past, past);
  assert.is((await mc(["cp", "-r", "--older-than", "2d", `${dir}/`, join(work, "aged-out")])).code, 0);
  assert.equal(await readdir(join(work, "aged-out")), ["old.txt"]);
  assert.is((await mc(["cp", "-r", "--newer-than", "2d", `${dir}/`, join(work, "aged-new")])).code, 0);
  assert.equal(await readdir(join(work, "aged-new")), ["new.txt"]);
});

files("should cat, head and stat files", async () => {
  assert.is((await mc(["cat", join(src, "a.txt")])).stdout, "alpha\nbeta\ngamma\n");
  assert.is((await mc(["head", "-n", "1", join(src, "a.txt")])).stdout, "alpha\n");
  const s = await mc(["stat", join(src, "a.txt")]);
  assert.match(s.stdout, /^Name      : a\.txt \nDate      : .+ \nSize      : 17 B \n/);
  const j = jsonLines((await mc(["stat", "--json", join(src, "a.txt")])).stdout)[0];
  assert.is(j?.["size"], 17);
});

files("should move and remove files", async () => {
  await writeFile(join(work, "m.txt"), "m");
  assert.is((await mc(["mv", join(work, "m.txt"), join(work, "moved.txt")])).code, 0);
  await assert.not.throws(async () => stat(join(work, "moved.txt")));
  assert.is((await stat(join(work, "m.txt")).catch(() => undefined)), undefined);
  const r = await mc(["rm", join(work, "moved.txt")]);
  assert.is(r.stdout, `Removed \`${join(work, "moved.txt")}\`.\n`);
  const refused = await mc(["rm", "-r", join(work, "flat")]);
  assert.is(refused.code, 1);
  const j = jsonLines((await mc(["rm", "-r", "--force", "--json", join(work, "flat")])).stdout);
  assert.is(j.length, 2);
  assert.is(await stat(join(work, "flat")).catch(() => undefined), undefined);
});

files("should report missing files with the contract's error", async () => {
  const t = await mc(["cat", join(work, "none.txt")]);
  assert.is(t.code, 1);
  assert.match(t.stderr, /^mc: <ERROR> Unable to read from `.*none\.txt`\. Object does not exist\.\n$/);
  const j = await mc(["stat", "--json", join(work, "none.txt")]);
  assert.is(j.code, 1);
  assert.is(jsonLines(j.stdout)[0]?.["status"], "error");
});

files.run();

// ---

const odd = suite("a folder holding a FIFO, a link to /dev/zero, a link to nothing and a link to its parent");

odd("should copy, list and mirror its regular files only, at once, and refuse a named FIFO in one line", async () => {
  const dir = join(work, "odd");
  await mkdir(join(dir, "sub"), { recursive: true });
  await writeFile(join(dir, "a.txt"), "alpha\n");
  await writeFile(join(work, "target.txt"), "linked\n");
  for (const args of [["mkfifo", join(dir, "fifo")], ["ln", "-s", "/dev/zero", join(dir, "zero")], ["ln", "-s", join(work, "nowhere"), join(dir, "dangling")], ["ln", "-s", dir, join(dir, "sub", "up")], ["ln", "-s", join(work, "target.txt"), join(dir, "link.txt")]]) {
    assert.is(spawnSync(args[0] ?? "", args.slice(1)).status, 0, args.join(" "));
  }
  // Before, cp -r opened the FIFO (and the FIFO again through sub/up, and again...) on every thread and never ended.
  const cp = await mc(["cp", "-r", `${dir}/`, join(work, "odd-copy")], { hangMs: 20_000 });
  assert.is(cp.code, 0, cp.stderr);
  assert.equal((await readdir(join(work, "odd-copy"), { recursive: true })).sort(), ["a.txt", "link.txt"]);
  assert.is(await readFile(join(work, "odd-copy", "link.txt"), "utf8"), "linked\n");
  const ls = jsonLines((await mc(["ls", "-r", "--json", dir], { hangMs: 20_000 })).stdout);
  assert.equal(ls.map((o) => o["key"]), ["a.txt", "link.txt"]);
  const mirror = await mc(["mirror", dir, join(work, "odd-mirror")], { hangMs: 20_000 });
  assert.is(mirror.code, 0, mirror.stderr);
  assert.equal((await readdir(join(work, "odd-mirror"), { recursive: true })).sort(), ["a.txt", "link.txt"]);
  const fifo = await mc(["cp", "-q", join(dir, "fifo"), join(work, "fifo-copy")], { hangMs: 20_000 });
  assert.equal([fifo.code, fifo.stderr], [1, `mc: <ERROR> Failed to copy \`${join(dir, "fifo")}\`. \`${join(dir, "fifo")}\` is not a regular file; to upload a stream, use \`mc pipe\`.\n`]);
  assert.not.ok(await stat(join(work, "fifo-copy")).catch(() => undefined), "a file was made from the FIFO");
  // cat reads a FIFO as cat(1) does: what its writer wrote.
  const writer = spawn("sh", ["-c", `echo from-the-fifo > '${join(dir, "fifo")}'`]);
  const cat = await mc(["cat", join(dir, "fifo")], { hangMs: 20_000 });
  writer.kill();
  assert.equal([cat.code, cat.stdout], [0, "from-the-fifo\n"], cat.stderr);
});

odd("should refuse, in one line, a file whose name is not UTF-8 instead of skipping it :: cp -r, mirror, ls", async () => {
  const dir = join(work, "latin1");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "good.txt"), "good\n");
  // bad<0xff>.txt: Node reads the name back as bad\uFFFD.txt, a file that does not exist.
  await writeFile(Buffer.concat([Buffer.from(`${dir}/bad`), Buffer.from([0xff]), Buffer.from(".txt")]), "lost?\n");
  for (const args of [["cp", "-r", `${dir}/`, join(work, "latin1-copy")], ["mirror", dir, join(work, "latin1-mirror")], ["ls", `${dir}/`]]) {
    const r = await mc(args);
    assert.equal([r.code, r.stderr], [1, `mc: <ERROR> \`${dir}/bad\uFFFD.txt\` has a name that is not valid UTF-8, which mc cannot read; rename it.\n`], args.join(" "));
  }
  // Reported, and the rest is still copied.
  assert.equal(await readdir(join(work, "latin1-copy")), ["good.txt"]);
  assert.equal(await readdir(join(work, "latin1-mirror")), ["good.txt"]);
  // A name that really holds U+FFFD is an ordinary name.
  const fine = join(work, "replacement");
  await mkdir(fine, { recursive: true });
  await writeFile(join(fine, "a\uFFFDb.txt"), "ok\n");
  const ls = jsonLines((await mc(["ls", "--json", `${fine}/`])).stdout);
  assert.equal(ls.map((o) => o["key"]), ["a\uFFFDb.txt"]);
});

odd("should report each folder it may not read, copy the rest, fail, and let mirror --remove delete nothing :: cp -r, ls -r, mirror, diff, du, find", async () => {
  // Another user than root, whom no file mode stops: a world-readable copy of the bundle, a folder of its own.
  const nobody = 65534;
  const top = await mkdtemp(join(tmpdir(), "mc-perm-"));
  try {
    await chmod(top, 0o755);
    await cp(join(repoRoot, "cli", "dist"), join(top, "dist"), { recursive: true });
    const config = join(top, "config");
    await mkdir(config);
    const as = (args: readonly string[]): ReturnType<typeof runMc> => runMc(["-C", config, ...args], { uid: nobody, bin: join(top, "dist", "mc.cjs") });
    const dir = join(top, "src");
    await mkdir(join(dir, "ok"), { recursive: true });
    await mkdir(join(dir, "locked"));
    await mkdir(join(dir, "unsearchable"));
    for (const [name, text] of [["a.txt", "a"], ["ok/b.txt", "b"], ["locked/c.txt", "c"], ["unsearchable/d.txt", "d"], ["z.txt", "z"]] as const) await writeFile(join(dir, name), text);
    // A mirror made while everything could be read, with one file the source no longer has.
    await mkdir(join(top, "mirror", "locked"), { recursive: true });
    await writeFile(join(top, "mirror", "locked", "c.txt"), "c");
    await writeFile(join(top, "mirror", "gone.txt"), "g");
    await chmod(join(dir, "locked"), 0o000);
    await chmod(join(dir, "unsearchable"), 0o644);
    await mkdir(join(top, "copy"));
    for (const path of [config, join(top, "copy"), join(top, "mirror"), join(top, "mirror", "locked")]) await chown(path, nobody, nobody);
    const lines = `mc: <ERROR> Insufficient permissions to access this path \`${dir}/locked/\`.\nmc: <ERROR> Insufficient permissions to access this path \`${dir}/unsearchable/\`.\n`;
    const copy = await as(["cp", "-r", "-q", `${dir}/`, join(top, "copy")]);
    assert.equal([copy.code, copy.stderr], [1, lines], "cp -r");
    assert.equal((await readdir(join(top, "copy"), { recursive: true })).sort(), ["a.txt", "ok", "ok/b.txt", "z.txt"]);
    const ls = await as(["ls", "-r", "--json", dir]);
    assert.is(ls.code, 1);
    const listed = jsonLines(ls.stdout);
    assert.equal(listed.filter((o) => o["status"] === "success").map((o) => o["key"]), ["a.txt", "ok/b.txt", "z.txt"]);
    assert.equal(listed.filter((o) => o["status"] === "error").map((o) => (o["error"] as { message: string }).message), lines.replace(/mc: <ERROR> /g, "").split("\n").slice(0, 2));
    const mirror = await as(["mirror", "-q", "--remove", "--overwrite", `${dir}/`, join(top, "mirror")]);
    assert.equal([mirror.code, mirror.stderr], [1, `${lines}mc: <ERROR> Removed nothing from \`${join(top, "mirror")}/\`: parts of the source could not be read.\n`], "mirror");
    assert.equal((await readdir(join(top, "mirror"), { recursive: true })).sort(), ["a.txt", "gone.txt", "locked", "locked/c.txt", "ok", "ok/b.txt", "z.txt"]);
    // What an unreadable folder holds is unknown: its copies are not "only in" the other side.
    const mirrored = join(top, "mirror");
    for (const [a, b, expected] of [[`${dir}/`, mirrored, `> ${mirrored}/gone.txt`], [mirrored, dir, `< ${mirrored}/gone.txt`]] as const) {
      const diff = await as(["diff", a, b]);
      assert.equal([diff.code, diff.stdout, diff.stderr], [1, `${expected}\n`, lines], `diff ${a} ${b}`);
    }
    for (const args of [["du", `${dir}/`], ["find", dir]]) assert.equal([(await as(args)).code, (await as(args)).stderr], [1, lines], args.join(" "));
    // A folder that may be searched but not read (0711) still lets a named file through.
    await chmod(join(dir, "ok"), 0o711);
    assert.match((await as(["ls", join(dir, "ok", "b.txt")])).stdout, / 1B b\.txt\n$/);
    assert.equal([(await as(["ls", join(dir, "ok", "nope")])).stderr], [`mc: <ERROR> Insufficient permissions to access this path \`${dir}/ok\`.\n`]);
  } finally {
    await chmod(join(top, "src", "locked"), 0o755).catch(() => undefined);
    await chmod(join(top, "src", "unsearchable"), 0o755).catch(() => undefined);
    await rm(top, { recursive: true, force: true });
  }
});

odd.run();

const tools = suite("mb, rb, du, diff, find, tree, mirror, pipe, od on the filesystem");

tools("should make and remove folders with mb and rb", async () => {
  const b = join(work, "bucket");
  const t = await mc(["mb", b]);
  assert.is(t.stdout, `Bucket created successfully \`${b}\`.\n`);
  await writeFile(join(b, "f"), "f");
  assert.is((await mc(["rb", b])).code, 1);
  const r = await mc(["rb", "--force", "--json", b]);
  assert.is(r.stdout, `{"status":"success","bucket":"${b}"}\n`);
});

tools("should sum with du, compare with diff, and search with find", async () => {
  assert.is((await mc(["du", src])).stdout, `1.5KiB\t2 objects\t${src}\n`);
  const d = await mc(["du", "--depth", "1", "--json", src]);
  assert.equal(jsonLines(d.stdout).map((o) => o["prefix"]), [`${src}/sub`, src]);
  const other = join(work, "other");
  await mkdir(other);
  await writeFile(join(other, "a.txt"), "different");
  const diff = await mc(["diff", src, other]);
  assert.is(diff.code, 0);
  assert.is(diff.stdout, `! ${join(other, "a.txt")}\n< ${join(src, "sub", "b.bin")}\n`);
  const find = await mc(["find", src, "--name", "*.bin"]);
  assert.is(find.stdout, `${join(src, "sub", "b.bin")}\n`);
  const exec = await mc(["find", src, "--name", "a.txt", "--exec", "cat {}"]);
  assert.is(exec.stdout, "alpha\nbeta\ngamma\n");
  // A name with spaces is one argument of the command (before, `cat` got `…/my` and `file.txt`).
  const spaced = join(work, "spaced dir");
  await mkdir(spaced);
  await writeFile(join(spaced, "my  file.txt"), "spaced\n");
  const each = await mc(["find", spaced, "--exec", "printf [%s|%s]\\n {base} {}"]);
  assert.equal([each.code, each.stdout], [0, `[my  file.txt|${join(spaced, "my  file.txt")}]\n`], each.stderr);
});

tools("should draw a tree", async () => {
  assert.is((await mc(["tree", "-f", src])).stdout, `${src}\n├─ a.txt\n└─ sub\n   └─ b.bin\n`);
});

tools("should mirror folders with --remove and write pipes and od output", async () => {
  const dst = join(work, "mirror");
  assert.is((await mc(["mirror", src, dst])).code, 0);
  await writeFile(join(dst, "extra"), "x");
  const r = await mc(["mirror", "--remove", src, dst]);
  assert.match(r.stdout, /Removed `.*extra`\./);
  assert.equal((await readdir(dst)).sort(), ["a.txt", "sub"]);
  assert.is((await mc(["pipe", join(work, "piped.txt")], { input: "piped" })).code, 0);
  assert.is(await readFile(join(work, "piped.txt"), "utf8"), "piped");
  const od = jsonLines((await mc(["od", "--json", `if=${join(src, "sub", "b.bin")}`, `of=${join(work, "od.bin")}`])).stdout)[0];
  assert.is(od?.["type"], "FStoFS");
  assert.is((await stat(join(work, "od.bin"))).size, 1536);
  // A folder either way is refused in one line, as upstream's od refuses it (before: a rename's EISDIR naming mc's temp file, and "Object does not exist").
  const onto = await mc(["od", "if=/dev/zero", `of=${work}`, "size=1KiB"]);
  assert.equal([onto.code, onto.stderr], [1, `mc: <ERROR> \`${work}\` is a folder; od writes one object or file, give its name.\n`]);
  const from = await mc(["od", `if=${src}`, `of=${join(work, "od2.bin")}`]);
  assert.equal([from.code, from.stderr], [1, `mc: <ERROR> \`${src}\` is a folder; od reads one object or file.\n`]);
  assert.not.ok((await readdir(dirname(work))).some((n) => n.startsWith(`.${basename(work)}.mc-part`)), "no temp file left beside the folder");
});

tools.after(async () => {
  await rm(work, { recursive: true, force: true });
  await rm(configDir, { recursive: true, force: true });
});

tools.run();
