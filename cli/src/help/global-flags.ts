// The global flags as upstream lists them (cmd/flags.go): accepted before the
// command and on every subcommand, shown once in `mc --help` and in every
// group's help.
import { currentPlatform, defaultConfigDir } from "../config/home-dir.js";

export interface GlobalFlag {
  /** Long name first, then the short or alternative names. */
  readonly names: readonly string[];
  /** Takes a value (`--config-dir DIR`): the next word is not a command. */
  readonly value: boolean;
  readonly usage: string;
  readonly env?: string;
}

export const globalFlags: readonly GlobalFlag[] = [
  { names: ["--config-dir", "-C"], value: true, usage: "path to configuration folder", env: "MC_CONFIG_DIR" },
  { names: ["--quiet", "-q"], value: false, usage: "disable progress bar display", env: "MC_QUIET" },
  { names: ["--disable-pager", "--dp"], value: false, usage: "disable mc internal pager and print to raw stdout", env: "MC_DISABLE_PAGER" },
  { names: ["--no-color"], value: false, usage: "disable color theme", env: "MC_NO_COLOR" },
  { names: ["--json"], value: false, usage: "enable JSON lines formatted output", env: "MC_JSON" },
  { names: ["--debug"], value: false, usage: "enable debug output", env: "MC_DEBUG" },
  { names: ["--resolve"], value: true, usage: "resolves HOST[:PORT] to an IP address. Example: minio.local:9000=10.10.75.1", env: "MC_RESOLVE" },
  { names: ["--insecure"], value: false, usage: "disable SSL certificate verification", env: "MC_INSECURE" },
  { names: ["--limit-upload"], value: true, usage: "limits uploads to a maximum rate in KiB/s, MiB/s, GiB/s. (default: unlimited)", env: "MC_LIMIT_UPLOAD" },
  { names: ["--limit-download"], value: true, usage: "limits downloads to a maximum rate in KiB/s, MiB/s, GiB/s. (default: unlimited)", env: "MC_LIMIT_DOWNLOAD" },
  { names: ["--custom-header", "-H"], value: true, usage: "add custom HTTP header to the request. 'key:value' format." },
];

/** Accepted everywhere like the others, but hidden from help and completion, as upstream hides them. */
const hiddenGlobalFlags: readonly GlobalFlag[] = [
  { names: ["--conn-read-deadline"], value: true, usage: "custom connection READ deadline (default: 10m0s)" },
  { names: ["--conn-write-deadline"], value: true, usage: "custom connection WRITE deadline (default: 10m0s)" },
];

export const helpFlag: GlobalFlag = { names: ["--help", "-h"], value: false, usage: "show help" };
export const versionFlag: GlobalFlag = { names: ["--version", "-v"], value: false, usage: "print the version" };
export const autocompletionFlag: GlobalFlag = { names: ["--autocompletion"], value: false, usage: "install auto-completion for your shell" };

const byName = new Map([...globalFlags, ...hiddenGlobalFlags, helpFlag, versionFlag, autocompletionFlag].flatMap((f) => f.names.map((n) => [n, f] as const)));

/** The global flag a word names (`--json`, `-C`, `--config-dir=DIR`), if any. */
export function globalFlagOf(word: string): GlobalFlag | undefined {
  return byName.get(word.split("=")[0] ?? word);
}

/** True when the word is a flag whose value is the next word (not `--flag=value`). */
export function takesNextWord(word: string): boolean {
  return !word.includes("=") && globalFlagOf(word)?.value === true;
}

function configDirDefault(): string {
  try {
    return ` (default: "${defaultConfigDir(currentPlatform())}")`;
  } catch {
    // No home directory: the flag is still listed, without a default.
    return "";
  }
}

/** `--config-dir value, -C value` and its usage, as urfave/cli prints a flag. */
export function flagCells(flag: GlobalFlag): [string, string] {
  const names = flag.names.map((n) => (flag.value ? `${n} value` : n)).join(", ");
  const usage = `${flag.usage}${flag.names[0] === "--config-dir" ? configDirDefault() : ""}${flag.env ? ` [$${flag.env}]` : ""}`;
  return [names, usage];
}
