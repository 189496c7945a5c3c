import { chmod, mkdtemp, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { applyMcAttrs, mcAttrsOf, parseMcAttrs } from "./preserve-attrs.js";

test("writes mc's format and reads it back", async () => {
  const dir = await mkdtemp(join(tmpdir(), "attrs-"));
  const file = join(dir, "f");
  await writeFile(file, "x");
  await chmod(file, 0o640);
  await utimes(file, 1_700_000_000.25, 1_600_000_000.5);
  const text = await mcAttrsOf(file);
  assert.match(text, /^atime:1700000000#250000000\/gid:\d+\/gname:[^/]*\/mode:33184\/mtime:1600000000#500000000\/uid:\d+\/uname:[^/]*$/);
  const parsed = parseMcAttrs(text);
  assert.equal(parsed.mtime, { s: 1_600_000_000, ns: 500_000_000 });
  assert.is(parsed.mode, 0o100640);
  const copy = join(dir, "g");
  await writeFile(copy, "x");
  await applyMcAttrs(copy, parsed);
  const st = await stat(copy);
  assert.is(st.mode & 0o7777, 0o640);
  assert.is(st.mtimeMs, 1_600_000_000_500);
  await rm(dir, { recursive: true });
});

test("ignores malformed fields instead of applying them", () => {
  assert.equal(parseMcAttrs("mtime:abc/mode:-1/uid:x/atime:1#2"), { atime: { s: 1, ns: 2 } });
  assert.equal(parseMcAttrs(""), {});
});

test.run();
