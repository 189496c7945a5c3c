import { join, posix, win32 } from "node:path";
import { mcError } from "../core/errors.js";

/** The platform seam: tests pass another platform and environment instead of the real ones. */
export interface Platform {
  readonly os: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly argv0: string;
}

export function currentPlatform(): Platform {
  return { os: process.platform, env: process.env, argv0: process.argv[1] ?? "mc" };
}

/** mitchellh/go-homedir: on Windows HOME, USERPROFILE, then HOMEDRIVE+HOMEPATH (both needed); on Unix HOME. */
export function homeDir(platform: Platform): string {
  const env = platform.env;
  const nonEmpty = (v: string | undefined): v is string => v !== undefined && v !== "";
  if (platform.os === "win32") {
    if (nonEmpty(env["HOME"])) return env["HOME"];
    if (nonEmpty(env["USERPROFILE"])) return env["USERPROFILE"];
    const drive = env["HOMEDRIVE"];
    const path = env["HOMEPATH"];
    if (nonEmpty(drive) && nonEmpty(path)) return drive + path;
    throw mcError("Unable to get mcConfigDir.", new Error("HOMEDRIVE, HOMEPATH, or USERPROFILE are blank"));
  }
  if (nonEmpty(env["HOME"])) return env["HOME"];
  throw mcError("Unable to get mcConfigDir.", new Error("HOME is not set"));
}

/** `~/.mc/` on Unix, `<home>\mc\` on Windows (program basename, without `.exe`, no dot). */
export function defaultConfigDir(platform: Platform): string {
  const name = (platform.os === "win32" ? win32 : posix).basename(platform.argv0).replace(/\.(exe|js|ts)$/i, "") || "mc";
  const home = homeDir(platform);
  if (platform.os === "win32") return `${home.replace(/\\$/, "")}\\${name}\\`;
  return join(home, `.${name}`);
}
