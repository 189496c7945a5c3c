import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "@mc/shared/errors";
import type { ReleaseSource } from "../domain/publish-release.js";

/** A release directory on disk, as `releases publish --from DIR` reads it. */
export function createFsReleaseSource(dir: string): ReleaseSource {
  async function names(path: string): Promise<string[]> {
    try {
      return (await readdir(path)).filter((n) => !n.startsWith(".")).sort();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") throw new AppError("invalid_argument", `cannot read ${path}: no such directory`);
      throw err;
    }
  }
  return {
    list: () => names(dir),
    listDir: (sub) => names(join(dir, sub)),
    read: async (path) => new Uint8Array(await readFile(join(dir, path))),
  };
}
