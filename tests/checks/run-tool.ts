import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface ToolResult {
  readonly status: number | null;
  readonly output: string;
}

/** Runs a repo tool from node_modules/.bin and returns its exit status and output. */
export function runTool(tool: string, args: readonly string[], input?: string): ToolResult {
  const res = spawnSync(join(repoRoot, "node_modules", ".bin", tool), args, {
    cwd: repoRoot,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    ...(input !== undefined ? { input } : {}),
  });
  return { status: res.status, output: `${res.stdout ?? ""}${res.stderr ?? ""}` };
}
