// Helpers of bench/scale/mc-size.ts: one client command run under
// /usr/bin/time (its peak RSS, from the kernel's rusage, so nothing is
// missed between samples), its stdout counted line by line as it streams
// (time to the first line), and a bucket filled quickly through rclone.
import { spawn } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface Measured {
  readonly ms: number;
  /** Time to the first byte of stdout (0 when nothing was printed). */
  readonly firstMs: number;
  readonly lines: number;
  readonly peakMiB: number;
}

/** Runs `cmd args` to completion; fails loudly on a non-zero exit. */
export function measure(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, scratch: string): Promise<Measured> {
  const timeFile = join(scratch, `time-${process.pid}-${Math.random().toString(36).slice(2)}`);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstMs = 0;
    let lines = 0;
    let err = "";
    const child = spawn("/usr/bin/time", ["-f", "%M", "-o", timeFile, cmd, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk: Buffer) => {
      if (firstMs === 0) firstMs = performance.now() - started;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (err.length < 64 * 1024) err += chunk.toString();
    });
    child.once("error", reject);
    child.once("close", (code) => {
      const ms = performance.now() - started;
      readFile(timeFile, "utf8")
        .then(async (text) => {
          await rm(timeFile, { force: true });
          const kib = Number(/(\d+)\s*$/.exec(text.trim())?.[1] ?? 0);
          if (code !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${code}: ${err.slice(-2000)}`);
          resolve({ ms, firstMs, lines, peakMiB: kib / 1024 });
        })
        .catch(reject);
    });
  });
}

/**
 * The most V8 kept alive of a node program's heap, in MiB: the largest heap
 * left after a full (mark-compact) collection, from `--trace-gc`. Unlike the
 * peak RSS it does not move with how far the young generation and the
 * garbage between full collections grew, so it shows whether memory holds
 * the whole listing or a page of it. 0 when no full collection ran.
 */
export function liveHeapMiB(script: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--trace-gc", script, ...args], { env, stdio: ["ignore", "pipe", "ignore"] });
    let max = 0;
    let rest = "";
    child.stdout.on("data", (chunk: Buffer) => {
      const lines = (rest + chunk.toString("latin1")).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        const m = /Mark-Compact [\d.]+ \([\d.]+\) -> ([\d.]+) \(/.exec(line);
        if (m) max = Math.max(max, Number(m[1]));
      }
    });
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve(max) : reject(new Error(`${script} ${args.join(" ")} exited ${code}`))));
  });
}

/** The run of median wall time and the median peak RSS of `runs` runs (memory peaks vary by ±15% run to run). */
export async function medianOf(runs: number, run: () => Promise<Measured>): Promise<Measured> {
  const all: Measured[] = [];
  for (let i = 0; i < runs; i++) all.push(await run());
  const mid = <T>(xs: T[], by: (x: T) => number): T => xs.sort((a, b) => by(a) - by(b))[Math.floor(xs.length / 2)] as T;
  const byTime = mid([...all], (m) => m.ms);
  return { ...byTime, peakMiB: mid([...all], (m) => m.peakMiB).peakMiB };
}

/** rclone's settings for one RGW, through the environment (no config file). */
export function rcloneEnv(base: NodeJS.ProcessEnv, endpoint: string, accessKey: string, secretKey: string): NodeJS.ProcessEnv {
  return {
    ...base,
    RCLONE_CONFIG_RGW_TYPE: "s3",
    RCLONE_CONFIG_RGW_PROVIDER: "Ceph",
    RCLONE_CONFIG_RGW_ACCESS_KEY_ID: accessKey,
    RCLONE_CONFIG_RGW_SECRET_ACCESS_KEY: secretKey,
    RCLONE_CONFIG_RGW_ENDPOINT: endpoint,
    RCLONE_CONFIG_RGW_FORCE_PATH_STYLE: "true",
  };
}

/** `<top>/dNNNN/oNNNNNNN`: folders of 1,000 objects, as a real bucket has prefixes. */
export const keyOf = (top: string, i: number): string => `${top}/d${String(Math.floor(i / 1000)).padStart(4, "0")}/o${String(i).padStart(7, "0")}`;

/**
 * `count` tiny objects under `top/` in `bucket`: a local folder of files
 * copied by rclone with many transfers (RGW's PUT rate is the limit).
 * Returns the milliseconds the upload took.
 */
export async function populate(bucket: string, top: string, count: number, scratch: string, env: NodeJS.ProcessEnv): Promise<number> {
  if (count <= 0) return 0;
  const dir = join(scratch, `fill-${top}`);
  for (let i = 0; i < count; i++) {
    if (i % 1000 === 0) await mkdir(join(dir, keyOf(top, i), ".."), { recursive: true });
    await writeFile(join(dir, keyOf(top, i)), `object ${i}\n`);
  }
  const flags = ["--transfers", "48", "--checkers", "16", "--no-check-dest", "--s3-no-head", "--s3-no-check-bucket", "--retries", "3"];
  const t = await measure("rclone", ["--config", "/dev/null", "copy", dir, `rgw:${bucket}`, ...flags], env, scratch);
  await rm(dir, { recursive: true, force: true });
  return t.ms;
}

/** Requests in RGW's log (its beast access lines) whose request line matches `pattern`. */
export async function countRequests(logFile: string, pattern: RegExp): Promise<number> {
  const log = await readFile(logFile, "utf8");
  let n = 0;
  for (const line of log.split("\n")) if (line.includes(" beast: ") && pattern.test(line)) n++;
  return n;
}
