// `mc --autocompletion`: writes the completion script of each shell the user
// has (bash, zsh, fish) and, for bash and zsh, one line in the shell's rc file
// that loads it. Every write is a temp file renamed into place (the rc file's
// own mode kept, a symbolic link to it followed), and nothing is rewritten
// that already holds what it should: a second run changes nothing.
import { randomBytes } from "node:crypto";
import { access, mkdir, open, readFile, realpath, rename, rm, stat } from "node:fs/promises";
import { constants } from "node:fs";
import { basename, delimiter, dirname, join } from "node:path";
import { shellScripts, type Shell } from "./shell-scripts.js";

export interface InstallOptions {
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface Installed {
  readonly shell: Shell;
  /** The completion script. */
  readonly script: string;
  /** The rc file that loads it (bash, zsh); fish loads its completions folder by itself. */
  readonly rc?: string;
  /** False when everything was in place already. */
  readonly changed: boolean;
}

/** Marks our line in an rc file: found there, the file is left alone. */
const marker = "# mc completion (mc --autocompletion)";

const quote = (path: string): string => `'${path.replace(/'/g, `'\\''`)}'`;

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function onPath(program: string, env: InstallOptions["env"]): Promise<boolean> {
  for (const dir of (env["PATH"] ?? "").split(delimiter).filter((d) => d !== "")) {
    try {
      await access(join(dir, program), constants.X_OK);
      return true;
    } catch {
      // Not in this folder.
    }
  }
  return false;
}

/** Temp file beside the target, flushed, then renamed over it: a reader sees the old file or the new one. */
async function writeAtomic(path: string, text: string, mode: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const file = await open(temp, "wx", mode);
    try {
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** Writes `text` unless the file already holds it; true when it wrote. */
async function ensureFile(path: string, text: string): Promise<boolean> {
  const current = await readFile(path, "utf8").catch(() => undefined);
  if (current === text) return false;
  await writeAtomic(path, text, 0o644);
  return true;
}

/** Appends the line that loads `script` to the rc file unless our marker is there; true when it wrote. */
async function ensureRcLine(rc: string, script: string): Promise<boolean> {
  // A dotfile manager's symbolic link stays a link: the file it points to is the one rewritten.
  const target = await realpath(rc).catch(() => rc);
  const current = await readFile(target, "utf8").catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return "";
    throw err;
  });
  if (current.split("\n").some((line) => line.includes(marker))) return false;
  const mode = await stat(target).then((s) => s.mode & 0o7777, () => 0o644);
  const separator = current === "" || current.endsWith("\n") ? "" : "\n";
  await writeAtomic(target, `${current}${separator}[ -f ${quote(script)} ] && . ${quote(script)}  ${marker}\n`, mode);
  return true;
}

/** The shells to set up: those on PATH, the login shell, and any whose rc file exists. */
async function shellsInUse(options: InstallOptions, rcOf: Record<Shell, string | undefined>): Promise<Shell[]> {
  const login = basename(options.env["SHELL"] ?? "");
  const out: Shell[] = [];
  for (const shell of ["bash", "zsh", "fish"] as const) {
    const rc = rcOf[shell];
    if (login === shell || (await onPath(shell, options.env)) || (rc !== undefined && (await exists(rc)))) out.push(shell);
  }
  return out;
}

export async function installCompletion(options: InstallOptions): Promise<Installed[]> {
  const { home, env } = options;
  const dataHome = env["XDG_DATA_HOME"] || join(home, ".local", "share");
  const configHome = env["XDG_CONFIG_HOME"] || join(home, ".config");
  const rcOf: Record<Shell, string | undefined> = { bash: join(home, ".bashrc"), zsh: join(env["ZDOTDIR"] || home, ".zshrc"), fish: undefined };
  const scriptOf: Record<Shell, string> = {
    bash: join(dataHome, "mc", "completion", "mc.bash"),
    zsh: join(dataHome, "mc", "completion", "mc.zsh"),
    // fish loads ~/.config/fish/completions/<command>.fish on its own.
    fish: join(configHome, "fish", "completions", "mc.fish"),
  };
  const out: Installed[] = [];
  for (const shell of await shellsInUse(options, rcOf)) {
    const script = scriptOf[shell];
    const rc = rcOf[shell];
    const wroteScript = await ensureFile(script, shellScripts[shell]);
    const wroteRc = rc === undefined ? false : await ensureRcLine(rc, script);
    out.push({ shell, script, ...(rc === undefined ? {} : { rc }), changed: wroteScript || wroteRc });
  }
  return out;
}

/** One line saying what was done, paths under the home folder written with `~`. */
export function installSummary(installed: readonly Installed[], home: string): string {
  const short = (path: string): string => (path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path);
  if (installed.length === 0) return "No bash, zsh or fish found; shell completion not installed.";
  const what = installed.map((i) => `${i.shell} (${short(i.rc ?? i.script)})`).join(", ");
  if (installed.every((i) => !i.changed)) return `Shell completion already installed for ${what}; nothing changed.`;
  return `Shell completion installed for ${what}; it works in shells started from now on.`;
}
