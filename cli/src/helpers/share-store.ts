import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface ShareRecord {
  /** The object's URL. */
  share: string;
  versionID: string;
  date: string;
  /** Nanoseconds. */
  expiry: number;
  contentType?: string;
}

interface ShareFile {
  version: string;
  shares: Record<string, ShareRecord>;
}

const fileOf = (configDir: string, kind: "upload" | "download"): string => join(configDir, "share", `${kind}s.json`);

export async function readShares(configDir: string, kind: "upload" | "download"): Promise<Record<string, ShareRecord>> {
  try {
    return (JSON.parse(await readFile(fileOf(configDir, kind), "utf8")) as ShareFile).shares ?? {};
  } catch {
    return {};
  }
}

/** Adds shares and drops expired ones (share/uploads.json, share/downloads.json, version "1"). */
export async function saveShares(configDir: string, kind: "upload" | "download", added: Record<string, ShareRecord>): Promise<void> {
  const shares = { ...(await readShares(configDir, kind)), ...added };
  const now = Date.now();
  for (const [url, rec] of Object.entries(shares)) if (Date.parse(rec.date) + rec.expiry / 1e6 < now) delete shares[url];
  const file = fileOf(configDir, kind);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ version: "1", shares }, null, "\t")}\n`, { mode: 0o600 });
  await rename(temp, file);
}
