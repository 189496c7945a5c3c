// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// Every program of the project (each `bin` of the root and workspace
// package.json files, and `npm run cluster`) meets bad input the same way: an
// unknown flag, a malformed URL or host, a missing or unwritable path give one
// clear line on stderr and a non-zero status, never a stack trace; a closed
// stdout ends the program quietly with 141, as a program killed by SIGPIPE,
// and a stdout that fails otherwise (a full disk) in one line.
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { cleanEnv } from "../mc/mc-runner.js";
import { repoRoot } from "./run-tool.js";

interface Program {
  readonly name: string;
  /** Node arguments that start it (the bin file, or the script's own command). */
  readonly argv: readonly string[];
  /** npm runs a script in the repository; a bin runs wherever the user is. */
  readonly cwd?: string;
}

interface Case {
  readonly what: string;
  readonly args: readonly string[];
  readonly env?: Record<string, string>;
  /**
   * "fail": one clear line and a non-zero status; "closed": stdout closed at once, expect 141 and
   * silence; "full": stdout is /dev/full (every write fails with ENOSPC), expect one line and 1.
   */
  readonly expect: "fail" | "closed" | "full";
  /** The line must name the problem. */
  readonly mentions?: RegExp;
}

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** npm scripts that are programs a user runs (the others build, test or lint). */
const programScripts = ["cluster"];

function readJson(path: string): { bin?: string | Record<string, string>; workspaces?: string[]; scripts?: Record<string, string>; name?: string } {
  return JSON.parse(readFileSync(path, "utf8")) as ReturnType<typeof readJson>;
}

function programs(): Program[] {
  const root = readJson(join(repoRoot, "package.json"));
  const out: Program[] = [];
  for (const dir of [".", ...(root.workspaces ?? [])]) {
    const pkg = readJson(join(repoRoot, dir, "package.json"));
    const bins = typeof pkg.bin === "string" ? { [(pkg.name ?? dir).replace(/^@[^/]+\//, "")]: pkg.bin } : (pkg.bin ?? {});
    for (const [name, file] of Object.entries(bins)) out.push({ name, argv: [join(repoRoot, dir, file)] });
  }
  for (const name of programScripts) {
    const words = (root.scripts?.[name] ?? "").split(/\s+/);
    assert.is(words[0], "node", `npm run ${name} is expected to start node`);
    out.push({ name, argv: words.slice(1), cwd: repoRoot });
  }
  return out;
}

const work = await mkdtemp(join(tmpdir(), "every-program-"));
/** A regular file: any path under it can be neither read nor created, even by root. */
const aFile = join(work, "a-file");
const missing = join(work, "missing", "dir");
const mcConfig = join(work, "mc-config");
const gomod = join(work, "gomod.txt");
const licenses = join(work, "licenses.json");
const sbomArgs = ["--from", gomod, "--licenses", licenses, "--component", "mc", "--release", "RELEASE.2025-01-02T03-04-05Z"];
const apiKey = "k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const listing = join(work, "listing");

/** Cases per program; every program also gets an unknown top-level flag, and a closed and a full stdout on --help. */
function casesOf(name: string): Case[] | undefined {
  const table: Record<string, Case[]> = {
    mc: [
      { what: "unknown flag", args: ["ls", "--no-such-flag", work], expect: "fail", mentions: /--no-such-flag/ },
      { what: "malformed URL", args: ["alias", "set", "bad", "http://[::1", "a", "b"], expect: "fail", mentions: /http:\/\/\[::1/ },
      { what: "malformed host", args: ["alias", "set", "bad", "http://bad host:9000", "a", "b"], expect: "fail", mentions: /bad host/ },
      { what: "missing path", args: ["ls", missing], expect: "fail", mentions: /does not exist/ },
      { what: "unwritable path", args: ["cp", gomod, join(aFile, "sub", "x")], expect: "fail", mentions: /a-file` is a file, so it cannot hold/ },
      { what: "unwritable config folder", args: ["--config-dir", join(aFile, "cfg"), "ls", work], expect: "fail", mentions: /config/ },
      { what: "closed pipe", args: ["ls", "-r", listing], expect: "closed" },
      { what: "full disk", args: ["ls", "-r", listing], expect: "full", mentions: /Unable to write to standard output\. No space left on device\.$/ },
      { what: "full disk", args: ["cat", gomod], expect: "full", mentions: /Unable to write to standard output\. No space left on device\.$/ },
    ],
    kms: [
      { what: "unknown flag", args: ["hsm", "new", "--no-such-flag"], expect: "fail", mentions: /--no-such-flag/ },
      { what: "unknown flag", args: ["cluster", "status", "--no-such-flag", "--api-key", apiKey], expect: "fail", mentions: /--no-such-flag/ },
      { what: "malformed URL", args: ["cluster", "status", "--server", "127.0.0.1:7373,", "--api-key", apiKey], expect: "fail", mentions: /127\.0\.0\.1:7373,/ },
      { what: "malformed URL", args: ["cluster", "status", "--server", "https://[::1", "--api-key", apiKey], expect: "fail", mentions: /\[::1/ },
      { what: "malformed host", args: ["server", "--dev", "--address", "bad host:99999"], expect: "fail", mentions: /bad host/ },
      { what: "malformed API key", args: ["cluster", "status", "--server", "127.0.0.1:1", "--api-key", "nonsense"], expect: "fail", mentions: /API key/ },
      { what: "missing path", args: ["server", "--config", join(missing, "kms.yaml")], expect: "fail", mentions: /missing/ },
      { what: "missing path", args: ["cluster", "status", "--ca", join(missing, "ca.pem"), "--api-key", apiKey], expect: "fail", mentions: /missing/ },
      { what: "unreadable path", args: ["identity", "of", join(aFile, "cert.pem")], expect: "fail", mentions: /a-file/ },
      { what: "closed pipe", args: ["apikey", "new"], expect: "closed" },
    ],
    releases: [
      { what: "unknown flag", args: ["sbom", "--no-such-flag"], expect: "fail", mentions: /--no-such-flag/ },
      { what: "malformed URL", args: ["serve", "--nats", "nats://[::1", "--store", work, "--base-url", "http://x"], expect: "fail", mentions: /nats:\/\/\[::1/ },
      { what: "malformed URL", args: ["serve", "--nats", "nats://127.0.0.1:1", "--store", work, "--base-url", "not a url"], expect: "fail", mentions: /not a url/ },
      { what: "missing path", args: ["sbom", ...sbomArgs.map((a) => (a === gomod ? join(missing, "gomod.txt") : a))], expect: "fail", mentions: /missing/ },
      { what: "missing path", args: ["sbom", ...sbomArgs, "--out", missing], expect: "fail", mentions: /missing\/dir/ },
      { what: "unwritable path", args: ["sbom", ...sbomArgs, "--out", join(aFile, "out")], expect: "fail", mentions: /a-file/ },
      { what: "unwritable path", args: ["keygen", "--key", join(aFile, "minisign.key")], expect: "fail", mentions: /a-file/ },
      { what: "closed pipe", args: ["sbom", ...sbomArgs, "--out", work], expect: "closed" },
    ],
    gateway: [
      { what: "unknown flag", args: ["--port", "8080"], expect: "fail", mentions: /--port/ },
      { what: "malformed URL", args: ["--base-url", "ftp://x", "--kms-listen", "off"], expect: "fail", mentions: /ftp:\/\/x/ },
      { what: "malformed URL", args: ["--nats", "nats://[::1", "--store", work], expect: "fail", mentions: /nats:\/\/\[::1/ },
      { what: "malformed host", args: ["--listen", "no-port"], expect: "fail", mentions: /no-port/ },
      { what: "unwritable path", args: ["--data-dir", join(aFile, "data"), "--kms-listen", "off", "--listen", "127.0.0.1:0"], expect: "fail", mentions: /a-file/ },
      { what: "closed pipe", args: ["--data-dir", join(work, "gateway-data"), "--kms-listen", "off", "--listen", "127.0.0.1:0"], expect: "closed" },
    ],
    cluster: [
      { what: "unknown flag", args: ["down", "--no-such-flag"], env: { MC_CLUSTER_DIR: join(work, "cluster") }, expect: "fail", mentions: /--no-such-flag/ },
      // MC_CLUSTER_DIR under a file as well: nothing can start even if the check were missing.
      { what: "malformed ports", args: ["up"], env: { MC_CLUSTER_DIR: join(aFile, "cluster"), MC_CLUSTER_PORTS: "4222,4223" }, expect: "fail", mentions: /MC_CLUSTER_PORTS/ },
      { what: "missing path", args: ["status"], env: { MC_CLUSTER_DIR: missing }, expect: "fail", mentions: /missing/ },
      { what: "unwritable path", args: ["up"], env: { MC_CLUSTER_DIR: join(aFile, "cluster"), MC_CLUSTER_PORTS: "auto" }, expect: "fail", mentions: /a-file/ },
      { what: "closed pipe", args: ["down"], env: { MC_CLUSTER_DIR: join(work, "cluster") }, expect: "closed" },
    ],
  };
  return table[name];
}

function run(program: Program, c: Case): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const env = cleanEnv({ MC_CONFIG_DIR: mcConfig, KMS_API_KEY: undefined, NATS_URL: undefined, ...c.env });
    const full = c.expect === "full" ? openSync("/dev/full", "w") : undefined;
    const child = spawn(process.execPath, [...program.argv, ...c.args], { cwd: program.cwd ?? work, env, stdio: ["ignore", full ?? "pipe", "pipe"] });
    if (full !== undefined) closeSync(full);
    if (c.expect === "closed") child.stdout?.destroy();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on("data", (b: Buffer) => out.push(b));
    child.stderr?.on("data", (b: Buffer) => err.push(b));
    // A program that waits forever (a server that started after all) fails the case rather than the run.
    const timer = setTimeout(() => child.kill("SIGKILL"), 60000);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() });
    });
  });
}

/** A service's own structured log line below error level (the gateway logs that it is ready): routine, not a complaint. */
function routineLog(line: string): boolean {
  try {
    const level = (JSON.parse(line) as { level?: unknown }).level;
    return typeof level === "number" && level < 50;
  } catch {
    return false;
  }
}

const stackFrame = /^\s+at .+(\(|:\d+)|node:internal|Error: |TypeError|internal error|Unhandled/m;

/** What is wrong with an ending, or "" when it is as it should be. */
function judge(program: Program, c: Case, r: Ended): string {
  const status = r.code ?? r.signal;
  if (c.expect === "closed") {
    const said = r.stderr.split("\n").filter((l) => l.trim() !== "" && !routineLog(l));
    return r.code === 141 && said.length === 0 ? "" : `exit ${status} (must be 141, silent), stderr ${JSON.stringify(r.stderr.slice(0, 400))}`;
  }
  if (r.code === 0 || r.code === null) return `exit ${status} (must be non-zero), stderr ${JSON.stringify(r.stderr.slice(0, 400))}`;
  // The message, then optionally a blank line and the usage.
  const message = r.stderr.split("\n\n")[0] ?? "";
  const lines = message.trim().split("\n");
  if (lines.length !== 1 || !lines[0]?.startsWith(`${program.name}: `)) return `not one line starting with '${program.name}: ': ${JSON.stringify(r.stderr.slice(0, 400))}`;
  if (stackFrame.test(r.stderr) || stackFrame.test(r.stdout)) return `a stack trace or an internal error: ${JSON.stringify((r.stderr + r.stdout).slice(0, 400))}`;
  if (c.mentions && !c.mentions.test(lines[0])) return `'${lines[0]}' does not name the problem (${c.mentions})`;
  return "";
}

async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const every = suite("every program");

every.before(async () => {
  await writeFile(aFile, "not a folder\n");
  await writeFile(gomod, "example.com/main\ngithub.com/a/lib v1.2.3\n");
  await writeFile(licenses, JSON.stringify({ "example.com/main": "Apache-2.0", "github.com/a/lib": "MIT" }));
  await mkdir(listing);
  await Promise.all(Array.from({ length: 300 }, (_, i) => writeFile(join(listing, `f${i}`), "x")));
  // The first run of mc writes its configuration and says so on stderr: done here, once.
  await new Promise((resolve) => spawn(process.execPath, [join(repoRoot, "cli", "bin", "mc.js"), "--config-dir", mcConfig, "alias", "list"], { stdio: "ignore" }).once("close", resolve));
});

every.after(async () => {
  await rm(work, { recursive: true, force: true });
});

every("should find mc, kms, releases, gateway and the cluster launcher", () => {
  assert.equal(programs().map((p) => p.name).sort(), ["cluster", "gateway", "kms", "mc", "releases"]);
});

every("should give each program's bad input one clear line and a non-zero status, and end quietly with 141 on a closed stdout", async () => {
  const jobs: { program: Program; c: Case }[] = [];
  for (const program of programs()) {
    const cases = casesOf(program.name);
    assert.ok(cases, `no bad-input cases for '${program.name}': add its malformed URL/host, missing and unwritable path cases to casesOf()`);
    const generic: Case[] = [
      { what: "unknown top-level flag", args: ["--no-such-flag"], expect: "fail", mentions: /--no-such-flag/ },
      { what: "closed pipe on --help", args: ["--help"], expect: "closed" },
      { what: "full disk on --help", args: ["--help"], expect: "full", mentions: /standard output/ },
    ];
    for (const c of [...generic, ...(cases ?? [])]) jobs.push({ program, c });
  }
  const failures: string[] = [];
  await eachLimited(jobs, 3, async ({ program, c }) => {
    const problem = judge(program, c, await run(program, c));
    if (problem !== "") failures.push(`${program.name} ${c.args.join(" ")} (${c.what}): ${problem}`);
  });
  assert.equal(failures.sort(), []);
});

every.run();
