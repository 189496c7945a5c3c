import { readFileSync } from "node:fs";
import { chmod, mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { mcError } from "../core/errors.js";

/** One alias of config.json version "10" (cmd/config-v10.go); unknown fields are kept as read. */
export interface AliasConfig {
  url: string;
  accessKey: string;
  secretKey: string;
  sessionToken?: string;
  api: string;
  path: string;
  license?: string;
  apiKey?: string;
  [extra: string]: unknown;
}

export interface ConfigFile {
  version: string;
  aliases: Record<string, AliasConfig>;
  [extra: string]: unknown;
}

export function defaultConfig(): ConfigFile {
  return {
    version: "10",
    aliases: {
      gcs: { url: "https://storage.googleapis.com", accessKey: "YOUR-ACCESS-KEY-HERE", secretKey: "YOUR-SECRET-KEY-HERE", api: "S3v2", path: "dns" },
      local: { url: "http://localhost:9000", accessKey: "", secretKey: "", api: "S3v4", path: "auto" },
      play: { url: "https://play.min.io", accessKey: "Q3AM3UQ867SPQQA43P2F", secretKey: "zuf+tfteSlswRu7BJ86wekitnifILbZam1KYY3TG", api: "S3v4", path: "auto" },
      s3: { url: "https://s3.amazonaws.com", accessKey: "YOUR-ACCESS-KEY-HERE", secretKey: "YOUR-SECRET-KEY-HERE", api: "S3v4", path: "dns" },
    },
  };
}

const aliasFieldOrder = ["url", "accessKey", "secretKey", "sessionToken", "api", "path", "license", "apiKey"] as const;

/** Field order of the Go struct, empty sessionToken omitted, then any fields we did not know, as read. */
export function orderAlias(alias: AliasConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of aliasFieldOrder) {
    const value = alias[key];
    if (value === undefined) continue;
    if (key === "sessionToken" && value === "") continue;
    out[key] = value;
  }
  for (const [key, value] of Object.entries(alias)) if (!(key in out) && !(aliasFieldOrder as readonly string[]).includes(key)) out[key] = value;
  return out;
}

/** Tab-indented, aliases sorted, as the original client writes it. */
export function serializeConfig(config: ConfigFile): string {
  const aliases: Record<string, unknown> = {};
  for (const name of Object.keys(config.aliases).sort()) {
    const alias = config.aliases[name];
    if (alias) aliases[name] = orderAlias(alias);
  }
  const out: Record<string, unknown> = { version: config.version, aliases };
  for (const [key, value] of Object.entries(config)) if (!(key in out)) out[key] = value;
  return `${JSON.stringify(out, null, "\t")}\n`;
}

export function configPath(dir: string): string {
  return join(dir, "config.json");
}

export async function readConfig(dir: string): Promise<ConfigFile | undefined> {
  let text: string;
  try {
    // Synchronous: a small file, and often the run's only file read: no thread pool to start for it.
    text = readFileSync(configPath(dir), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw mcError(`Unable to load config \`${configPath(dir)}\`.`, err);
  }
  try {
    const parsed = JSON.parse(text) as ConfigFile;
    if (typeof parsed !== "object" || parsed === null) throw new Error("not a JSON object");
    parsed.aliases ??= {};
    // Older clients called the section "hosts"; read it as aliases.
    const hosts = (parsed as { hosts?: Record<string, AliasConfig> }).hosts;
    if (hosts && Object.keys(parsed.aliases).length === 0) {
      parsed.aliases = hosts;
      delete (parsed as { hosts?: unknown }).hosts;
    }
    checkAliases(parsed.aliases);
    return parsed;
  } catch (err) {
    throw mcError(`Unable to parse config \`${configPath(dir)}\`.`, err);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const textFields = ["url", "accessKey", "secretKey", "sessionToken", "api", "path", "license", "apiKey"] as const;

/**
 * A hand-edited file of the right JSON but the wrong shape (aliases as a
 * list, a number for a URL) is refused here, naming the field, rather than
 * listed as `URL: undefined` or failing later far from its cause.
 */
function checkAliases(aliases: unknown): void {
  if (!isObject(aliases)) throw new Error("`aliases` must be an object of alias names");
  for (const [name, alias] of Object.entries(aliases)) {
    if (!isObject(alias)) throw new Error(`alias \`${name}\` must be an object`);
    for (const field of textFields) {
      if (alias[field] !== undefined && typeof alias[field] !== "string") throw new Error(`alias \`${name}\`: \`${field}\` must be a string`);
    }
  }
}

/** Atomic write (temp file + rename), mode 0600: the file holds secrets. */
export async function writeConfig(dir: string, config: ConfigFile): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const target = configPath(dir);
  const temp = `${target}.${process.pid}.tmp`;
  await writeFile(temp, serializeConfig(config), { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, target);
}
