import { execFileSync } from "node:child_process";

/**
 * Where this commit's own seeds start: taken from the commit id, so every
 * commit explores ground no earlier run chose. SIM_FROM overrides it (to
 * replay a CI run elsewhere); outside a git checkout the clock decides.
 */
export function commitSeedBase(): { from: number; source: string } {
  const forced = process.env["SIM_FROM"];
  if (forced !== undefined && /^\d+$/.test(forced)) return { from: Number(forced), source: "SIM_FROM" };
  try {
    const sha = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    // 32 bits of the id, kept clear of the top so a range of seeds stays below 2^32.
    return { from: parseInt(sha.slice(0, 8), 16) % 4_000_000_000, source: `commit ${sha.slice(0, 12)}` };
  } catch {
    return { from: Date.now() % 4_000_000_000, source: "clock (no git checkout)" };
  }
}
