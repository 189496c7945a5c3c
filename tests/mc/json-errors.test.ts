// JSON output that scripts parse (contracts/mc.md §4, §5): an error always
// carries a message and a non-empty cause message; `diff --json` names only
// the side an entry exists on.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, runMc } from "./mc-runner.js";

const root = await mkdtemp(join(tmpdir(), "mc-json-errors-"));
const cfg = join(root, "cfg");

interface ErrorJson {
  status: string;
  error: { message: string; cause: { message: string; error: Record<string, unknown> }; type: string };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The first JSON line, checked field by field to be mc's error shape (a wrong shape fails the test here). */
function errorJsonOf(stdout: string): ErrorJson {
  const line: unknown = jsonLines(stdout)[0];
  const error = isRecord(line) ? line["error"] : undefined;
  const cause = isRecord(error) ? error["cause"] : undefined;
  if (!isRecord(line) || !isRecord(error) || !isRecord(cause) || !isRecord(cause["error"])) throw new Error(`not an error JSON: ${stdout}`);
  const text = (v: unknown): string => (typeof v === "string" ? v : "");
  return {
    status: text(line["status"]),
    error: { message: text(error["message"]), cause: { message: text(cause["message"]), error: cause["error"] }, type: text(error["type"]) },
  };
}

const errors = suite("error JSON");

errors.before(async () => {
  // The first run writes the config and says so on stderr; get it out of the way.
  await runMc(["-C", cfg, "alias", "list"]);
});

errors("should give every error a non-empty message and cause message", async () => {
  const cases: string[][] = [
    ["lss"], // unknown command (main.ts)
    ["diff", root], // usage error raised by a command
    ["alias", "remove", "nosuch"], // an mc error without a cause
    ["--limit-upload", "garbage", "ls", root], // a bad global flag value
    ["ls", join(root, "missing")], // an error with a cause
  ];
  for (const args of cases) {
    const r = await runMc(["-C", cfg, "--json", ...args]);
    assert.is(r.code, 1, args.join(" "));
    assert.is(r.stderr, "", args.join(" "));
    const e = errorJsonOf(r.stdout);
    const raw = jsonLines(r.stdout)[0] ?? {};
    assert.is(e.status, "error");
    assert.ok(e.error.message.trim() !== "", `${args.join(" ")}: empty message`);
    assert.ok(e.error.cause.message.trim() !== "", `${args.join(" ")}: empty cause message in ${JSON.stringify(e)}`);
    assert.equal(Object.keys(isRecord(raw["error"]) ? raw["error"] : {}), ["message", "cause", "type"]);
  }
});

errors("should keep the text form of an error without a cause on one line, not repeated", async () => {
  const r = await runMc(["-C", cfg, "alias", "remove", "nosuch"]);
  assert.is(r.code, 1);
  assert.is(r.stderr, "mc: <ERROR> No such alias `nosuch` found.\n");
});

errors.run();

const diff = suite("diff --json");

diff("should leave second empty for an entry only in the first, and first empty for one only in the second", async () => {
  const a = join(root, "a");
  const b = join(root, "b");
  await mkdir(join(a, "sub"), { recursive: true });
  await mkdir(b, { recursive: true });
  await writeFile(join(a, "both"), "1");
  await writeFile(join(b, "both"), "22");
  await writeFile(join(a, "sub", "only-a"), "x");
  await writeFile(join(b, "only-b"), "y");
  const r = await runMc(["-C", cfg, "diff", "--json", a, b]);
  assert.is(r.code, 0, r.stderr);
  assert.equal(jsonLines(r.stdout), [
    { status: "success", first: join(a, "both"), second: join(b, "both"), diff: 2 },
    { status: "success", first: "", second: join(b, "only-b"), diff: 6 },
    { status: "success", first: join(a, "sub", "only-a"), second: "", diff: 5 },
  ]);
  const text = await runMc(["-C", cfg, "diff", a, b]);
  assert.is(text.stdout, `! ${join(b, "both")}\n> ${join(b, "only-b")}\n< ${join(a, "sub", "only-a")}\n`);
});

diff.after(async () => {
  await rm(root, { recursive: true, force: true });
});

diff.run();
