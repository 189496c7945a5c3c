// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// A closed stdout (`mc ls -r A/b | head -1`) ends every command quietly with
// status 141, as Go's mc dies of SIGPIPE (contracts/mc.md §4). The commands
// come from the CLI's own registry: a command missing from the table below is
// still run (with --help, which prints), so a new command is never skipped.
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { commands } from "../../cli/src/commands/index.js";
import { cleanEnv, mcBin, startMcFixture } from "./mc-runner.js";

const fx = await startMcFixture();
const { work, rgw, configDir } = fx;

interface Invocation {
  /** Arguments after `mc -C <config>`. */
  readonly args: readonly string[];
  readonly input?: string;
  readonly env?: Record<string, string>;
  /** Something for the command to report (watch prints on events only); repeated until the command ends. */
  readonly trigger?: () => Promise<void>;
}

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

const src = join(work, "src");
const watched = join(work, "watched");
const file = join(src, "file.txt");
const policyFile = join(work, "policy.json");
const many = join(work, "many");
const bucketPolicy = (bucket: string): string =>
  JSON.stringify({ Version: "2012-10-17", Statement: [{ Effect: "Allow", Principal: { AWS: ["*"] }, Action: ["s3:GetObject"], Resource: [`arn:aws:s3:::${bucket}/*`] }] });
let watchCount = 0;

/**
 * One invocation per command that prints when it succeeds here. Where this
 * machine has no peer for a command (no KMS, no release server, no bucket
 * encryption or notification topic on RGW), `--json` makes the error the
 * command's output on stdout, which is just as much a write to a closed pipe.
 */
const table: Readonly<Record<string, Invocation>> = {
  "alias set": { args: ["alias", "set", "pipe-new", rgw.endpoint, rgw.accessKey, rgw.secretKey] },
  "alias list": { args: ["alias", "list"] },
  "alias remove": { args: ["alias", "remove", "pipe-gone"] },
  cat: { args: ["cat", "rgw/pipe-data/big"] },
  cp: { args: ["cp", "-r", "rgw/pipe-data/", `${join(work, "cp-out")}/`] },
  get: { args: ["get", "rgw/pipe-data/big", "-"] },
  head: { args: ["head", "rgw/pipe-data/people.csv"] },
  ls: { args: ["ls", "-r", "rgw/pipe-data"] },
  mb: { args: ["mb", "rgw/pipe-made"] },
  mv: { args: ["mv", "rgw/pipe-data/mv-src", "rgw/pipe-data/mv-dst"] },
  // pipe prints nothing when it succeeds (as upstream), so no early close can happen then; its error is its output.
  pipe: { args: ["pipe", "--json", "rgw/no-such-bucket/piped"], input: "piped bytes\n" },
  put: { args: ["put", "--json", file, "rgw/pipe-data/put"] },
  rb: { args: ["rb", "rgw/pipe-rb"] },
  rm: { args: ["rm", "rgw/pipe-data/rm-me"] },
  stat: { args: ["stat", "rgw/pipe-data/obj-1"] },
  du: { args: ["du", "rgw/pipe-data"] },
  diff: { args: ["diff", "rgw/pipe-data", src] },
  find: { args: ["find", "rgw/pipe-data"] },
  mirror: { args: ["mirror", src, "rgw/pipe-mirror"] },
  od: { args: ["od", `if=${file}`, "of=rgw/pipe-data/od"] },
  ping: { args: ["ping", "-c", "1", "rgw"] },
  tree: { args: ["tree", "rgw/pipe-data"] },
  "share download": { args: ["share", "download", "rgw/pipe-data/obj-1"] },
  "share upload": { args: ["share", "upload", "rgw/pipe-data/up"] },
  "share list": { args: ["share", "list", "download"] },
  "admin info": { args: ["admin", "info", "rgw"] },
  "admin kms key create": { args: ["admin", "kms", "key", "create", "rgw", "k1", "--json"] },
  "admin kms key list": { args: ["admin", "kms", "key", "list", "rgw", "--json"] },
  "admin kms key status": { args: ["admin", "kms", "key", "status", "rgw", "k1", "--json"] },
  "admin kms identity info": { args: ["admin", "kms", "identity", "info", "rgw", "h1:x", "--json"] },
  // Port 9 (discard) refuses: the update check fails at once, and says so on stdout.
  update: { args: ["update", "--json"], env: { MC_UPDATE_URL: "http://127.0.0.1:9/client/mc/release" } },
  "tag set": { args: ["tag", "set", "rgw/pipe-data/obj-2", "a=b"] },
  "tag list": { args: ["tag", "list", "rgw/pipe-data/obj-3"] },
  "tag remove": { args: ["tag", "remove", "rgw/pipe-data/obj-4"] },
  "version enable": { args: ["version", "enable", "rgw/pipe-ver2"] },
  "version suspend": { args: ["version", "suspend", "rgw/pipe-ver3"] },
  "version info": { args: ["version", "info", "rgw/pipe-ver"] },
  undo: { args: ["undo", "rgw/pipe-ver/v"] },
  "retention set": { args: ["retention", "set", "governance", "1d", "rgw/pipe-lock/a"] },
  "retention clear": { args: ["retention", "clear", "--default", "rgw/pipe-lock"] },
  "retention info": { args: ["retention", "info", "rgw/pipe-lock/b"] },
  "legalhold set": { args: ["legalhold", "set", "rgw/pipe-lock/c"] },
  "legalhold clear": { args: ["legalhold", "clear", "rgw/pipe-lock/d"] },
  "legalhold info": { args: ["legalhold", "info", "rgw/pipe-lock/e"] },
  "anonymous set": { args: ["anonymous", "set", "download", "rgw/pipe-anon"] },
  "anonymous set-json": { args: ["anonymous", "set-json", policyFile, "rgw/pipe-anon2"] },
  "anonymous get": { args: ["anonymous", "get", "rgw/pipe-data"] },
  "anonymous list": { args: ["anonymous", "list", "rgw/pipe-pub"] },
  "anonymous links": { args: ["anonymous", "links", "-r", "rgw/pipe-pub"] },
  "ilm rule add": { args: ["ilm", "rule", "add", "--expire-days", "30", "rgw/pipe-ilm2"] },
  "ilm rule edit": { args: ["ilm", "rule", "edit", "--id", "r1", "--expire-days", "40", "rgw/pipe-ilm"] },
  "ilm rule list": { args: ["ilm", "rule", "list", "rgw/pipe-ilm"] },
  "ilm rule remove": { args: ["ilm", "rule", "remove", "--id", "r3", "rgw/pipe-ilm3"] },
  "ilm rule export": { args: ["ilm", "rule", "export", "rgw/pipe-ilm"] },
  "ilm rule import": { args: ["ilm", "rule", "import", "rgw/pipe-ilm4"], input: '{"Rules":[{"ID":"r4","Status":"Enabled","Filter":{"Prefix":""},"Expiration":{"Days":7}}]}' },
  "encrypt set": { args: ["encrypt", "set", "sse-s3", "rgw/pipe-data", "--json"] },
  "encrypt info": { args: ["encrypt", "info", "rgw/pipe-data", "--json"] },
  "encrypt clear": { args: ["encrypt", "clear", "rgw/pipe-data", "--json"] },
  "event add": { args: ["event", "add", "rgw/pipe-data", "arn:aws:sns:default::no-such-topic", "--json"] },
  "event list": { args: ["event", "list", "rgw/no-such-bucket", "--json"] },
  "event remove": { args: ["event", "remove", "rgw/no-such-bucket", "--force", "--json"] },
  watch: {
    args: ["watch", watched],
    trigger: () => writeFile(join(watched, `f${watchCount++}`), "x"),
  },
  sql: { args: ["sql", "--query", "select * from stdin;", "rgw/pipe-data/people.csv"] },
};

/** Runs mc with its stdout closed before it writes anything (or after `after` bytes), and waits for the end. */
function runClosed(inv: Invocation, closeAfter = 0): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mcBin, "-C", configDir, ...inv.args], { cwd: work, env: cleanEnv(inv.env), stdio: ["pipe", "pipe", "pipe"] });
    let seen = 0;
    if (closeAfter === 0) child.stdout.destroy();
    else {
      child.stdout.on("data", (c: Buffer) => {
        seen += c.length;
        if (seen >= closeAfter) child.stdout.destroy();
      });
    }
    const err: Buffer[] = [];
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.stdin.end(inv.input ?? "");
    let triggering = true;
    const loop = async (): Promise<void> => {
      while (triggering && inv.trigger) {
        await new Promise((r) => setTimeout(r, 300));
        if (triggering) await inv.trigger();
      }
    };
    void loop();
    const timer = setTimeout(() => child.kill("SIGKILL"), 30000);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      triggering = false;
      clearTimeout(timer);
      resolve({ code, signal, stderr: Buffer.concat(err).toString() });
    });
  });
}

async function mcOk(args: readonly string[], input?: string): Promise<void> {
  const r = await fx.mc(args, input === undefined ? {} : { input });
  if (r.code !== 0) throw new Error(`mc ${args.join(" ")} failed: ${r.stderr}${r.stdout}`);
}

async function setUp(): Promise<void> {
  await mkdir(src, { recursive: true });
  await mkdir(watched, { recursive: true });
  await mkdir(many, { recursive: true });
  await writeFile(file, "hello\n");
  await writeFile(join(src, "only-local.txt"), "local\n");
  await writeFile(policyFile, bucketPolicy("pipe-anon2"));
  // Far more listing than a pipe holds (64 KiB), so `head -1` really closes it early.
  await Promise.all(Array.from({ length: 2500 }, (_, i) => writeFile(join(many, `file-${String(i).padStart(5, "0")}.txt`), "x")));
  for (const b of ["pipe-data", "pipe-rb", "pipe-mirror", "pipe-ver", "pipe-ver2", "pipe-ver3", "pipe-anon", "pipe-anon2", "pipe-pub", "pipe-ilm", "pipe-ilm2", "pipe-ilm3", "pipe-ilm4"]) {
    await mcOk(["mb", `rgw/${b}`]);
  }
  await mcOk(["mb", "--with-lock", "rgw/pipe-lock"]);
  const objects = join(work, "objects");
  await mkdir(objects, { recursive: true });
  for (let i = 0; i < 8; i++) await writeFile(join(objects, `obj-${i}`), `object ${i}\n`);
  for (const name of ["rm-me", "mv-src"]) await writeFile(join(objects, name), name);
  await writeFile(join(objects, "people.csv"), "name,age\nada,36\nalan,41\n");
  await writeFile(join(objects, "big"), Buffer.alloc(8 * 1024 * 1024, 7));
  await mcOk(["cp", "-r", `${objects}/`, "rgw/pipe-data/"]);
  await mcOk(["version", "enable", "rgw/pipe-ver"]);
  await mcOk(["pipe", "rgw/pipe-ver/v"], "one");
  await mcOk(["pipe", "rgw/pipe-ver/v"], "two");
  for (const key of ["a", "b", "c", "d", "e"]) await mcOk(["pipe", `rgw/pipe-lock/${key}`], key);
  await mcOk(["legalhold", "set", "rgw/pipe-lock/d"]);
  await mcOk(["pipe", "rgw/pipe-pub/public.txt"], "public");
  await mcOk(["anonymous", "set", "download", "rgw/pipe-pub"]);
  await mcOk(["ilm", "rule", "add", "--id", "r1", "--expire-days", "10", "rgw/pipe-ilm"]);
  await mcOk(["ilm", "rule", "add", "--id", "r3", "--expire-days", "10", "rgw/pipe-ilm3"]);
  await mcOk(["share", "download", "rgw/pipe-data/obj-0"]);
  await mcOk(["alias", "set", "pipe-gone", rgw.endpoint, rgw.accessKey, rgw.secretKey]);
}

/** Bounded parallelism: two cores, and RGW shares them. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const closed = suite("closed stdout");

closed.before(async () => {
  await setUp();
});

closed.after(async () => {
  await fx.stop();
});

closed("should end every registered command quietly with 141 when its stdout is closed", async () => {
  const paths = commands.map((c) => (c.paths ?? [])[0]?.join(" ") ?? "");
  const failures: string[] = [];
  const helpOnly = paths.filter((p) => !(p in table));
  await eachLimited(paths, 3, async (path) => {
    const inv = table[path] ?? { args: [...path.split(" "), "--help"] };
    const r = await runClosed(inv);
    if (r.code !== 141 || r.stderr !== "") failures.push(`mc ${inv.args.join(" ")}: exit ${r.code ?? r.signal}, stderr ${JSON.stringify(r.stderr.slice(0, 300))}`);
  });
  if (helpOnly.length > 0) process.stdout.write(`closed-pipe: covered through --help only (add them to the table): ${helpOnly.join(", ")}\n`);
  assert.equal(failures, []);
  for (const key of Object.keys(table)) assert.ok(paths.includes(key), `table entry '${key}' is not a registered command`);
});

closed("should end `mc ls -r DIR | head -1` quietly with 141", async () => {
  const r = await runClosed({ args: ["ls", "-r", many] }, 1);
  assert.is(r.stderr, "");
  assert.is(r.code, 141);
});

closed("should end `mc cat A/bkt/big | head -c 10` quietly with 141", async () => {
  const r = await runClosed({ args: ["cat", "rgw/pipe-data/big"] }, 10);
  assert.is(r.stderr, "");
  assert.is(r.code, 141);
});

closed("should end --version and --help quietly with 141", async () => {
  for (const args of [["--version"], ["--help"], ["admin", "--help"]]) {
    const r = await runClosed({ args });
    assert.is(r.stderr, "", args.join(" "));
    assert.is(r.code, 141, args.join(" "));
  }
});

closed.run();
