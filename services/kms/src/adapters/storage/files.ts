import { open as openFile, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";

/** fsyncs a directory so a rename or a new file in it survives a crash. */
export async function syncDir(dir: string): Promise<void> {
  const fh = await openFile(dir, "r");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Writes a file atomically: temp file, fsync, rename, fsync of the directory. */
export async function writeFileAtomic(path: string, data: Uint8Array, mode = 0o600): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  const fh = await openFile(tmp, "w", mode);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } catch (err) {
    await fh.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fh.close();
  await rename(tmp, path);
  await syncDir(dirname(path));
}
