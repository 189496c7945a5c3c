// Runs a script in a fixture as its own process group, so a timeout kills
// what the script started too (a curl, a server the block forgot to stop).
import { spawn } from "node:child_process";
import type { Fixture } from "./doc-fixtures.js";

/** Runs `bash` over a script in the fixture; the process group is killed at the timeout. */
export function runShell(fx: Fixture, script: string, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], { cwd: fx.cwd, env: fx.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (c: Buffer) => (stdout = (stdout + c.toString()).slice(-1_000_000)));
    child.stderr.on("data", (c: Buffer) => (stderr = (stderr + c.toString()).slice(-1_000_000)));
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    process.once("exit", killGroup);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      process.off("exit", killGroup);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}
