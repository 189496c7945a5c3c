import { rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "@mc/shared/node";

/**
 * The embedded default says "a running service serves this data folder" with
 * a small file in it, so `releases publish` can tell a live deployment from a
 * leftover folder (which needs `--offline`).
 */
export const servingMarkerName = "serving.json";

export interface ServingMarker {
  readonly pid: number;
  readonly base: string;
}

export async function writeServingMarker(dataDir: string, marker: ServingMarker): Promise<void> {
  await writeFileAtomic(join(dataDir, servingMarkerName), new TextEncoder().encode(`${JSON.stringify(marker)}\n`));
}

/** Synchronous: it runs on the way out, right before the process exits. */
export function removeServingMarker(dataDir: string): void {
  rmSync(join(dataDir, servingMarkerName), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The marker of a running embedded default in `dataDir`, or undefined (none, or its process is gone). */
export async function readServingMarker(dataDir: string): Promise<ServingMarker | undefined> {
  const text = await readFile(join(dataDir, servingMarkerName), "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const m = JSON.parse(text) as Partial<ServingMarker>;
    return typeof m.pid === "number" && typeof m.base === "string" && alive(m.pid) ? { pid: m.pid, base: m.base } : undefined;
  } catch {
    return undefined;
  }
}
