// Shared by the ops tests: run the launcher as an operator does, read its
// state, and start a real Prometheus from a configuration file.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../harness/free-port.js";
import { startProcess, type Started } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const launcher = join(repoRoot, "scripts/cluster/cli.ts");

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end (asynchronously: the test process keeps serving its own timers). */
export function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 120_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `npm run cluster -- <args>` without npm's own start-up cost: the same script. */
export const cluster = (args: readonly string[], env: NodeJS.ProcessEnv): Promise<RunResult> => run(process.execPath, ["--import", "tsx", launcher, ...args], env);

/**
 * The launcher's processes are detached, so the harness's own exit hook does
 * not see them: if the test process ends early (a failure, a timeout, a
 * signal), SIGKILL every pid the state folder lists that still runs from it,
 * then remove the folder.
 */
export function killClusterOnExit(dir: string): void {
  // A signal must end the process through exit() for the hook below to run.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => process.exit(signal === "SIGINT" ? 130 : 143));
  process.on("exit", () => {
    let files: string[] = [];
    try {
      files = readdirSync(join(dir, "run"));
    } catch {
      // Nothing was started.
    }
    for (const f of files) {
      try {
        const pid = Number(readFileSync(join(dir, "run", f), "utf8").trim());
        if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(dir)) process.kill(pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });
}

export interface LauncherState {
  readonly ports: { nats: { client: number; monitor: number }[]; kms: number[]; gateway: number; gateway2: number };
}

export const readState = async (dir: string): Promise<LauncherState> => JSON.parse(await readFile(join(dir, "state.json"), "utf8")) as LauncherState;

export async function pidOf(dir: string, name: string): Promise<number> {
  return Number((await readFile(join(dir, "run", `${name}.pid`), "utf8")).trim());
}

/** True while the pid exists and is not a zombie. */
export async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return stat !== "" && !/^\d+ \(.*\) Z /.test(stat);
}

export interface PromServer {
  readonly url: string;
  readonly proc: Started;
  query<T = { metric: Record<string, string>; value: [number, string] }>(expr: string): Promise<T[]>;
  stop(): Promise<void>;
}

/** A real Prometheus (Debian package) on the given configuration file. */
export async function startPrometheusFromFile(dir: string, configFile: string): Promise<PromServer> {
  await mkdir(join(dir, "tsdb"), { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = startProcess("prometheus", [`--config.file=${configFile}`, `--storage.tsdb.path=${join(dir, "tsdb")}`, `--web.listen-address=127.0.0.1:${port}`]);
  await waitFor(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`prometheus exited: ${proc.output()}`);
      return (await fetch(`${url}/-/ready`)).ok;
    },
    { what: "prometheus ready", timeoutMs: 30000 },
  );
  return {
    url,
    proc,
    async query<T>(expr: string) {
      const body = (await (await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`)).json()) as { data: { result: T[] } };
      return body.data.result;
    },
    stop: () => proc.stop(),
  };
}
