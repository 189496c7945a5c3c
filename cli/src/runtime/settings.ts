import { defaultConfigDir, type Platform } from "../config/home-dir.js";
import type { GlobalSettings } from "./context.js";
import { mcError } from "../core/errors.js";
import type { UploadSettings } from "../storage/s3/s3-upload.js";
import { parseDuration, parseSize } from "../util/humanize.js";
import { parseBool } from "../util/parse-bool.js";

export interface GlobalFlags {
  readonly configDir: string | undefined;
  readonly json: boolean | undefined;
  readonly quiet: boolean | undefined;
  readonly debug: boolean | undefined;
  readonly insecure: boolean | undefined;
  readonly noColor: boolean | undefined;
  readonly limitUpload: string | undefined;
  readonly limitDownload: string | undefined;
  readonly resolve: readonly string[] | undefined;
  readonly customHeader: readonly string[] | undefined;
  readonly connReadDeadline?: string | undefined;
  readonly connWriteDeadline?: string | undefined;
}

/** A flag wins over its MC_* variable; the variable over the default. */
export function resolveSettings(flags: GlobalFlags, platform: Platform): GlobalSettings {
  const env = platform.env;
  const flag = (value: boolean | undefined, name: string): boolean => value ?? parseBool(env[name]);
  return {
    configDir: flags.configDir ?? (env["MC_CONFIG_DIR"] || defaultConfigDir(platform)),
    json: flag(flags.json, "MC_JSON"),
    quiet: flag(flags.quiet, "MC_QUIET"),
    debug: flag(flags.debug, "MC_DEBUG"),
    insecure: flag(flags.insecure, "MC_INSECURE"),
    noColor: flag(flags.noColor, "MC_NO_COLOR"),
    headers: flags.customHeader ?? [],
    resolve: flags.resolve ?? (env["MC_RESOLVE"] ? env["MC_RESOLVE"].split(",") : []),
    ...rate("limitUpload", flags.limitUpload ?? env["MC_LIMIT_UPLOAD"]),
    ...rate("limitDownload", flags.limitDownload ?? env["MC_LIMIT_DOWNLOAD"]),
    connIdleMs: Math.min(deadline("conn-read-deadline", flags.connReadDeadline), deadline("conn-write-deadline", flags.connWriteDeadline)),
  };
}

/** `--conn-read-deadline` / `--conn-write-deadline` (Go durations, default 10m) in milliseconds. */
function deadline(name: string, text: string | undefined): number {
  if (text === undefined) return 10 * 60_000;
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0) throw mcError(`Invalid --${name} \`${text}\`; use a duration such as 30s or 10m.`, undefined, "invalid_argument");
  return ms;
}

/** `10MiB` → bytes per second; absent or empty → no limit. */
function rate(name: "limitUpload" | "limitDownload", text: string | undefined): { limitUpload?: number } | { limitDownload?: number } {
  if (text === undefined || text === "") return {};
  const bytes = parseSize(text);
  if (bytes === undefined || bytes <= 0) throw mcError(`Invalid --${name === "limitUpload" ? "limit-upload" : "limit-download"} \`${text}\`.`, undefined, "invalid_argument");
  return { [name]: bytes };
}

const minPart = 5 * 1024 * 1024;

/** 16 MiB parts, 4 in parallel, unless MC_UPLOAD_MULTIPART_SIZE / _THREADS say otherwise. */
export function uploadSettings(env: Readonly<Record<string, string | undefined>>): UploadSettings {
  const sizeText = env["MC_UPLOAD_MULTIPART_SIZE"];
  const threadsText = env["MC_UPLOAD_MULTIPART_THREADS"];
  let partSize = 16 * 1024 * 1024;
  if (sizeText) {
    const parsed = parseSize(sizeText);
    if (parsed === undefined || parsed < minPart) throw mcError(`Invalid MC_UPLOAD_MULTIPART_SIZE \`${sizeText}\` (minimum 5MiB).`, undefined, "invalid_argument");
    partSize = parsed;
  }
  let parallel = 4;
  if (threadsText) {
    parallel = Number(threadsText);
    if (!Number.isInteger(parallel) || parallel < 1) throw mcError(`Invalid MC_UPLOAD_MULTIPART_THREADS \`${threadsText}\`.`, undefined, "invalid_argument");
  }
  return { partSize, parallel };
}
