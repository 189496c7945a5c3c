import { execFile, spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startCephRgw, type CephRgw, type CephRgwOptions } from "../harness/ceph-rgw.js";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const mcBin = join(repoRoot, "cli", "bin", "mc.js");

export interface McResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly env?: Record<string, string | undefined>;
  readonly input?: string | Buffer;
  readonly cwd?: string;
  /** Kill and fail a run that has not exited by then (default 45 s). */
  readonly hangMs?: number;
  /** Run as this user and group id (through setpriv when the tests run as root, whom no file mode stops). */
  readonly uid?: number;
  /** Another mc to run than the checkout's (a copy of the bundle another user can read). */
  readonly bin?: string;
}

/**
 * A command that finished its work but keeps the process alive (an unread
 * response holding a keep-alive socket until the server's idle timeout, a
 * minute on RGW) is a hang to its user; every run in the suite is bounded
 * below that timeout so the whole class fails loudly.
 */
const defaultHangMs = 45_000;

/** The environment of a test run: nothing of the developer's MC_* settings leaks in. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // MC_BUNDLE_FRESH is the test runner's, not the developer's: it only skips mc's bundle freshness check.
  for (const [k, v] of Object.entries(process.env)) if ((!k.startsWith("MC_") || k === "MC_BUNDLE_FRESH") && !k.startsWith("AWS_") && k !== "FORCE_COLOR") env[k] = v;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function spawnMc(args: readonly string[], options: RunOptions = {}): ChildProcess {
  const spawnOptions: SpawnOptions = { cwd: options.cwd ?? repoRoot, env: cleanEnv(options.env), stdio: ["pipe", "pipe", "pipe"] };
  const bin = options.bin ?? mcBin;
  if (options.uid !== undefined && process.getuid?.() === 0) {
    return spawn("setpriv", [`--reuid=${options.uid}`, `--regid=${options.uid}`, "--clear-groups", process.execPath, bin, ...args], spawnOptions);
  }
  return spawn(process.execPath, [bin, ...args], spawnOptions);
}

/** Runs `mc` to completion (stdin is a pipe, stdout/stderr are not terminals). */
export function runMc(args: readonly string[], options: RunOptions = {}): Promise<McResult> {
  return new Promise((resolve, reject) => {
    const child = spawnMc(args, options);
    const hangMs = options.hangMs ?? defaultHangMs;
    const hang = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`mc ${args.join(" ")} did not exit within ${hangMs / 1000} s`));
    }, hangMs);
    child.once("close", () => clearTimeout(hang));
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on("data", (c: Buffer) => out.push(c));
    child.stderr?.on("data", (c: Buffer) => err.push(c));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
    child.stdin?.end(options.input ?? "");
  });
}

/** Every line of stdout parsed as JSON (JSON Lines when stdout is not a terminal). */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export interface McFixture {
  readonly rgw: CephRgw;
  readonly configDir: string;
  readonly work: string;
  /** `mc -C <configDir> ...args`. */
  mc(args: readonly string[], options?: RunOptions): Promise<McResult>;
  stop(): Promise<void>;
}

/** One Ceph RGW per test file, a config dir with alias `rgw` pointing at it, and a scratch dir. */
export async function startMcFixture(options: CephRgwOptions = {}): Promise<McFixture> {
  const rgw = await startCephRgw(options);
  const configDir = await mkdtemp(join(tmpdir(), "mc-config-"));
  const work = await mkdtemp(join(tmpdir(), "mc-work-"));
  const removeOnExit = (): void => {
    rmSync(configDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  };
  process.once("exit", removeOnExit);
  const mc = (args: readonly string[], opts: RunOptions = {}): Promise<McResult> => runMc(["-C", configDir, ...args], opts);
  const set = await mc(["alias", "set", "rgw", rgw.endpoint, rgw.accessKey, rgw.secretKey]);
  if (set.code !== 0) throw new Error(`alias set failed: ${set.stderr}`);
  return {
    rgw,
    configDir,
    work,
    mc,
    async stop() {
      await rgw.stop();
      await rm(configDir, { recursive: true, force: true });
      await rm(work, { recursive: true, force: true });
      process.off("exit", removeOnExit);
    },
  };
}

/** A release build of mc (cli/scripts/build.mjs --release), optionally carrying a publisher key file. */
export async function buildReleaseFile(release: string, out: string, options: { commit?: string; keyFile?: string } = {}): Promise<string> {
  const args = [join(repoRoot, "cli", "scripts", "build.mjs"), "--release", release, "--out", out];
  if (options.commit !== undefined) args.push("--commit", options.commit);
  if (options.keyFile !== undefined) args.push("--minisign-pubkey", options.keyFile);
  await promisify(execFile)(process.execPath, args);
  return out;
}

/** Runs a release build file with node, as an installed mc, in a clean environment. */
export async function runReleaseFile(file: string, args: readonly string[], env: Record<string, string | undefined> = {}): Promise<McResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [file, ...args], { env: cleanEnv(env) });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : null, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/** `npm run release -- mc ...args` (scripts/release/cli.ts), to its end. */
export function releaseWith(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<McResult> {
  return shell(`exec "$0" --import tsx scripts/release/cli.ts mc "$@"`, { cwd: repoRoot, env: { ...cleanEnv(env) }, argv0: process.execPath, args, hangMs: 180_000 });
}

/** Runs `script` with /bin/sh in exactly the environment given (nothing inherited). */
export function shell(script: string, o: { cwd: string; env: Record<string, string | undefined>; argv0?: string; args?: readonly string[]; hangMs?: number }): Promise<McResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", script, o.argv0 ?? "sh", ...(o.args ?? [])], { cwd: o.cwd, env: o.env, stdio: ["ignore", "pipe", "pipe"] });
    const hang = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`sh -c ${script} did not exit within ${(o.hangMs ?? defaultHangMs) / 1000} s`));
    }, o.hangMs ?? defaultHangMs);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(hang);
      resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() });
    });
  });
}

export interface NpmPackage {
  readonly name: string;
  readonly version: string;
  readonly license: string;
}

/**
 * The npm packages inside a release build, from esbuild's metafile of
 * cli/scripts/build.mjs --release (node_modules/<name>/ inputs, and the
 * repository's workspace packages, which carry cli/package.json's license).
 */
export async function bundledNpmPackages(scratch: string): Promise<NpmPackage[]> {
  const meta = join(scratch, "bundle-meta.json");
  await promisify(execFile)(process.execPath, [join(repoRoot, "cli", "scripts", "build.mjs"), "--release", "RELEASE.2026-01-05T10-00-00Z", "--out", join(scratch, "bundle.cjs"), "--metafile", meta], { cwd: repoRoot });
  const inputs = Object.keys((JSON.parse(readFileSync(meta, "utf8")) as { inputs: Record<string, unknown> }).inputs);
  const readPkg = (dir: string): { name: string; version: string; license?: string } => JSON.parse(readFileSync(join(repoRoot, dir, "package.json"), "utf8")) as { name: string; version: string; license?: string };
  const mcLicense = readPkg("cli").license ?? "";
  const dirs = new Set<string>();
  for (const input of inputs) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m?.[1]) dirs.add(m[1]);
    else if (/^(services\/(shared|kms)|wasm)\//.test(input)) dirs.add(input.split("/").slice(0, input.startsWith("wasm/") ? 1 : 2).join("/"));
  }
  return [...dirs].map((dir) => {
    const p = readPkg(dir);
    return { name: p.name, version: p.version, license: p.license ?? mcLicense };
  });
}
