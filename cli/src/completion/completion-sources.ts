// The real sources of completion candidates: the configuration's aliases
// (read, never created: completing must not write ~/.mc), the server's
// bucket and object names within a short deadline, and local paths.
import { readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { resolveAliases, type ResolvedAlias } from "../config/aliases.js";
import { configPath, readConfig } from "../config/config-file.js";
import { currentPlatform, defaultConfigDir } from "../config/home-dir.js";
import type { CommandHelp } from "../help/command-help.js";
import type { CommandTree } from "../help/command-tree.js";
import { createS3Client } from "../storage/s3/s3-client.js";
import { createS3Store } from "../storage/s3/s3-store.js";
import { parseBool } from "../util/parse-bool.js";
import type { CompletionSources } from "./complete.js";

/** At most this many names from one listing: a shell shows no more usefully. */
const maxNames = 1000;

export interface SourceOptions {
  readonly tree: CommandTree;
  command(path: readonly string[]): CommandHelp | undefined;
  /** The words of the line (`-C DIR` and `--insecure` among them count). */
  readonly words: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  /** How long the server may take to list, in milliseconds. */
  readonly deadlineMs: number;
}

function configDirOf(words: readonly string[], env: Readonly<Record<string, string | undefined>>): string {
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    if ((word === "-C" || word === "--config-dir") && words[i + 1] !== undefined) return words[i + 1] ?? "";
    if (word.startsWith("--config-dir=")) return word.slice("--config-dir=".length);
  }
  return env["MC_CONFIG_DIR"] || defaultConfigDir(currentPlatform());
}

/** Resolves with the promise's value, or `fallback` once the deadline passes (the listing is then abandoned). */
function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

async function listRemote(alias: ResolvedAlias, rest: string, certsDir: string, insecure: boolean): Promise<string[]> {
  const client = createS3Client(alias, { certsDir, insecure });
  const slash = rest.indexOf("/");
  if (slash < 0) {
    const buckets = await client.listBuckets();
    return buckets.map((b) => b.name).filter((name) => name.startsWith(rest)).slice(0, maxNames).map((name) => `${alias.name}/${name}/`);
  }
  const bucket = rest.slice(0, slash);
  const prefix = rest.slice(slash + 1);
  const store = createS3Store(client, alias.name, bucket, { partSize: 16 * 1024 * 1024, parallel: 1 });
  const out: string[] = [];
  for await (const entry of store.list(prefix, { recursive: false })) {
    out.push(`${alias.name}/${bucket}/${entry.key}`);
    if (out.length >= maxNames) break;
  }
  return out;
}

async function listLocal(word: string): Promise<string[]> {
  const cut = word.lastIndexOf("/") + 1;
  const dir = word.slice(0, cut);
  const base = word.slice(cut);
  const onDisk = dir === "" ? "." : dir.startsWith("~/") ? join(homedir(), dir.slice(2)) : dir;
  const entries = await readdir(onDisk, { withFileTypes: true });
  return entries
    .filter((e) => e.name.startsWith(base) && (base.startsWith(".") || !e.name.startsWith(".")))
    .slice(0, maxNames)
    .map((e) => `${dir}${e.name}${e.isDirectory() ? "/" : ""}`);
}

export function createCompletionSources(options: SourceOptions): CompletionSources {
  const dir = configDirOf(options.words, options.env);
  let aliases: Promise<ReadonlyMap<string, ResolvedAlias>> | undefined;
  const loadAliases = (): Promise<ReadonlyMap<string, ResolvedAlias>> => {
    aliases ??= readConfig(dir).then((config) => resolveAliases(config ?? { version: "10", aliases: {} }, configPath(dir), options.env));
    return aliases;
  };
  const insecure = options.words.includes("--insecure") || parseBool(options.env["MC_INSECURE"]);
  return {
    tree: options.tree,
    command: options.command,
    aliases: async () => [...(await within(loadAliases(), options.deadlineMs, new Map())).keys()],
    async remote(aliasName, rest) {
      const alias = (await within(loadAliases(), options.deadlineMs, new Map<string, ResolvedAlias>())).get(aliasName);
      if (alias === undefined) return [];
      return within(listRemote(alias, rest, join(dir, "certs"), insecure), options.deadlineMs, []);
    },
    local: (word) => within(listLocal(word), options.deadlineMs, []),
  };
}
