import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The reference driver (driver/*.go, madmin-go v2.0.7 from Debian),
 * built offline in GOPATH mode once per source version: the binary is cached
 * in the temp dir under the hash of its source, with Go's build cache beside
 * it, so a test run builds it at most once and later runs not at all.
 */
const sourceDir = join(dirname(fileURLToPath(import.meta.url)), "driver");

let built: string | undefined;

export function driverBinary(): string {
  if (built) return built;
  const files = readdirSync(sourceDir).filter((f) => f.endsWith(".go")).sort();
  const digest = createHash("sha256");
  for (const f of files) digest.update(f).update("\0").update(readFileSync(join(sourceDir, f)));
  const hash = digest.digest("hex").slice(0, 16);
  const root = join(tmpdir(), "mc-madmin-driver");
  const binary = join(root, `driver-${hash}`);
  if (!existsSync(binary)) {
    // A private copy to build in: Go writes nothing into the source tree, and concurrent builds never share a directory.
    const work = join(root, `build-${process.pid}-${Date.now()}`);
    mkdirSync(work, { recursive: true });
    for (const f of files) copyFileSync(join(sourceDir, f), join(work, f));
    const r = spawnSync("go", ["build", "-o", join(work, "driver"), "."], {
      cwd: work,
      encoding: "utf8",
      env: { ...process.env, GO111MODULE: "off", GOPATH: "/usr/share/gocode", GOCACHE: join(root, "gocache"), CGO_ENABLED: "0" },
    });
    if (r.status !== 0) throw new Error(`building the madmin driver failed (needs golang-go and golang-github-minio-madmin-go-dev; scripts/system-deps.sh installs them):\n${r.stderr}${r.error?.message ?? ""}`);
    renameSync(join(work, "driver"), binary);
    rmSync(work, { recursive: true, force: true });
  }
  built = binary;
  return binary;
}

export interface DriverOptions {
  readonly endpoint?: string;
  readonly access?: string;
  readonly secret?: string;
  readonly secure?: boolean;
  readonly args?: Record<string, unknown>;
  readonly input?: Uint8Array;
}

export interface DriverResult {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** Runs one driver operation (asynchronously: the recorder answering it lives in this process). */
export function runDriver(op: string, options: DriverOptions = {}): Promise<DriverResult> {
  const argv = ["-op", op, "-args", JSON.stringify(options.args ?? {})];
  if (options.endpoint) argv.push("-endpoint", options.endpoint);
  if (options.access !== undefined) argv.push("-access", options.access);
  if (options.secret !== undefined) argv.push("-secret", options.secret);
  if (options.secure) argv.push("-secure");
  return new Promise((resolve, reject) => {
    const child = spawn(driverBinary(), argv, { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() }));
    // An operation that reads no input may exit before its stdin is closed: that EPIPE is no failure.
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? Buffer.alloc(0));
  });
}

/** madmin EncryptData with the reference library. */
export async function referenceEncrypt(secret: string, data: Uint8Array): Promise<Buffer> {
  const r = await runDriver("encrypt", { secret, input: data });
  if (r.code !== 0) throw new Error(`reference EncryptData failed: ${r.stderr}`);
  return r.stdout;
}

/** madmin DecryptData with the reference library: the plaintext, or the library's error. */
export async function referenceDecrypt(secret: string, data: Uint8Array): Promise<{ ok: true; plain: Buffer } | { ok: false; error: string }> {
  const r = await runDriver("decrypt", { secret, input: data });
  return r.code === 0 ? { ok: true, plain: r.stdout } : { ok: false, error: r.stderr.trim() };
}

/** A canned server answer from the library's types (JSON). */
export async function cannedAnswer(name: string): Promise<Buffer> {
  const r = await runDriver("canned", { args: { name } });
  if (r.code !== 0) throw new Error(`canned ${name}: ${r.stderr}`);
  return r.stdout;
}
