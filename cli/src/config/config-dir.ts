import { existsSync, mkdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { configPath, defaultConfig, readConfig, writeConfig, type ConfigFile } from "./config-file.js";

export interface LoadedConfig {
  readonly dir: string;
  readonly file: ConfigFile;
  readonly path: string;
  /** True when this run created the configuration. */
  readonly created: boolean;
}

/**
 * Reads `<dir>/config.json`; on first run creates it with the default aliases,
 * plus share/ files and certs/ + certs/CAs/ (directories 0700).
 */
export async function loadConfigDir(dir: string): Promise<LoadedConfig> {
  const existing = await readConfig(dir);
  // Synchronous, as the read: a run that needs no other file I/O starts no thread pool.
  for (const sub of ["", "certs", join("certs", "CAs"), "share"]) mkdirSync(join(dir, sub), { recursive: true, mode: 0o700 });
  for (const name of ["uploads.json", "downloads.json"]) {
    const file = join(dir, "share", name);
    if (!existsSync(file)) await writeFile(file, `${JSON.stringify({ version: "1", shares: {} }, null, "\t")}\n`, { mode: 0o600 });
  }
  if (existing) return { dir, file: existing, path: configPath(dir), created: false };
  const file = defaultConfig();
  await writeConfig(dir, file);
  return { dir, file, path: configPath(dir), created: true };
}
