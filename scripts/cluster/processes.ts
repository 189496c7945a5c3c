// Detached processes with pid files and log files in the state directory.
// A pid counts as ours only while its command line names the state
// directory, so a stale pid file never makes us signal a stranger.
import { spawn } from "node:child_process";
import { openSync, closeSync, readFileSync, writeSync } from "node:fs";
import { mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";

export interface ProcessSpec {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

export const pidFile = (dir: string, name: string): string => join(dir, "run", `${name}.pid`);
/** The line each start appends to the log, so readiness looks only at this run's output. */
export const startMarker = (name: string): string => `==> ${name} started`;

export const logFile = (dir: string, name: string): string => join(dir, "logs", `${name}.log`);

function cmdline(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return undefined;
  }
}

/** True while `pid` runs a command that names `dir` (our process, not a reused pid). */
export function isOurs(dir: string, pid: number): boolean {
  const line = cmdline(pid);
  if (line === undefined) return false;
  // A zombie has an empty command line: it is gone for our purposes.
  return line.includes(dir);
}

export async function readPid(dir: string, name: string): Promise<number | undefined> {
  const text = await readFile(pidFile(dir, name), "utf8").catch(() => undefined);
  const pid = Number(text?.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** The pid of `name` if it runs, else undefined (a stale pid file is removed). */
export async function runningPid(dir: string, name: string): Promise<number | undefined> {
  const pid = await readPid(dir, name);
  if (pid === undefined) return undefined;
  if (isOurs(dir, pid)) return pid;
  await rm(pidFile(dir, name), { force: true });
  return undefined;
}

/** Starts the process detached (it outlives the launcher), its output appended to its log file. */
export async function startDetached(dir: string, spec: ProcessSpec): Promise<number> {
  await mkdir(join(dir, "run"), { recursive: true });
  await mkdir(join(dir, "logs"), { recursive: true });
  const fd = openSync(logFile(dir, spec.name), "a");
  try {
    writeSync(fd, `${startMarker(spec.name)} ${new Date().toISOString()}\n`);
    const child = spawn(spec.command, spec.args, {
      detached: true,
      stdio: ["ignore", fd, fd],
      env: spec.env ?? process.env,
      cwd: spec.cwd ?? dir,
    });
    const pid = await new Promise<number>((ok, fail) => {
      child.once("error", fail);
      child.once("spawn", () => ok(child.pid ?? 0));
    });
    child.unref();
    await writeFile(pidFile(dir, spec.name), `${pid}\n`);
    return pid;
  } finally {
    closeSync(fd);
  }
}

/** Names with a pid file, whether or not they still run. */
export async function knownNames(dir: string): Promise<string[]> {
  const files = await readdir(join(dir, "run")).catch(() => [] as string[]);
  return files.filter((f) => f.endsWith(".pid")).map((f) => f.slice(0, -4));
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * SIGTERM, then SIGKILL after the grace period; resolves with the pids that
 * are still alive afterwards (none, unless the kernel refuses).
 */
export async function stopAll(dir: string, pids: readonly number[], graceMs = 8000): Promise<number[]> {
  const ours = pids.filter((p) => isOurs(dir, p));
  for (const pid of ours) {
    try {
      // A paused process (SIGSTOP) would never handle SIGTERM.
      process.kill(pid, "SIGCONT");
      process.kill(pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && ours.some((p) => alive(p) && isOurs(dir, p))) await delay(50);
  for (const pid of ours.filter((p) => alive(p) && isOurs(dir, p))) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  const killDeadline = Date.now() + 3000;
  while (Date.now() < killDeadline && ours.some((p) => alive(p) && isOurs(dir, p))) await delay(50);
  return ours.filter((p) => alive(p) && isOurs(dir, p));
}

/** The last lines of a process's log, for error messages. */
export async function logTail(dir: string, name: string, lines = 15): Promise<string> {
  const text = await readFile(logFile(dir, name), "utf8").catch(() => "");
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}
