import { join } from "node:path";

/**
 * The node arguments that run one uvu group: the TypeScript loader, the hook
 * that lets uvu print any error it catches (see uvu-format-hooks.mjs), uvu.
 */
export function uvuArgs(root: string, dir: string, pattern: string): string[] {
  return ["--import", "tsx", "--import", join(root, "tests", "harness", "uvu-format.mjs"), join(root, "node_modules", "uvu", "bin.js"), dir, pattern];
}
