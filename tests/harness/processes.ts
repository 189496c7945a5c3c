import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

/**
 * Every child a test starts is registered here and killed when the test
 * process exits, fails or is interrupted, so no server outlives its test.
 */
const children = new Set<ChildProcess>();
let hooked = false;

function killAll(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  children.clear();
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.on("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(signal === "SIGINT" ? 130 : 143);
    });
  }
}

export interface Started {
  readonly child: ChildProcess;
  /** Everything the child wrote, for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after the grace period; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
  kill(): Promise<void>;
}

export function startProcess(command: string, args: readonly string[], options: SpawnOptions = {}): Started {
  hook();
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
  children.add(child);
  let out = "";
  const keep = (chunk: Buffer): void => {
    out = (out + chunk.toString()).slice(-20000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => {
      children.delete(child);
      resolve();
    });
    child.once("error", () => {
      children.delete(child);
      resolve();
    });
  });
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  return {
    child,
    output: () => out,
    async stop(graceMs = 3000) {
      if (!running()) return exited;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
    async kill() {
      if (running()) child.kill("SIGKILL");
      await exited;
    },
  };
}
