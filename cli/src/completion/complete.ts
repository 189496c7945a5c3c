// What `mc __complete WORD... CURRENT` answers: the candidates for the word
// being typed, one per line, from the command tree (commands, subcommands),
// the resolved command's flags, the alias names and, for `ALIAS/BUCKET/…`,
// the names the server lists. The shells' scripts (shell-scripts.ts) only
// pass the words in and show what comes out.
import type { CommandHelp } from "../help/command-help.js";
import type { CommandTree } from "../help/command-tree.js";
import { splitCommandLine } from "../help/command-line.js";
import { globalFlags, helpFlag, versionFlag, autocompletionFlag } from "../help/global-flags.js";

export interface CompletionSources {
  readonly tree: CommandTree;
  /** The help of the command at a path (its flags). */
  command(path: readonly string[]): CommandHelp | undefined;
  /** Alias names from the configuration and the environment. */
  aliases(): Promise<readonly string[]>;
  /** Full words for `ALIAS/…`: `ALIAS/BUCKET/` or `ALIAS/BUCKET/KEY`; [] when the server does not answer. */
  remote(alias: string, rest: string): Promise<readonly string[]>;
  /** Local paths starting with the word, folders ending in `/`. */
  local(word: string): Promise<readonly string[]>;
}

const namesOf = (flags: readonly { readonly names: readonly string[] }[]): string[] => flags.flatMap((f) => [...f.names]);

/** Flags whose value is the next word: that word is a value, not a command or a path to complete. */
function valueFlags(help: CommandHelp | undefined): Set<string> {
  return new Set([...(help?.flags ?? []), ...globalFlags].filter((f) => f.value).flatMap((f) => f.names));
}

const startsWith = (prefix: string) => (candidate: string): boolean => candidate.startsWith(prefix);

/** Candidates for the last of `words` (the words after `mc`; the last one is being typed, maybe ""). */
export async function completeWords(words: readonly string[], sources: CompletionSources): Promise<string[]> {
  const current = words.at(-1) ?? "";
  const before = words.slice(0, -1);
  const typed = splitCommandLine(before).words.map((w) => w.word);
  const found = typed.length === 0 ? ({ kind: "group", path: [], next: undefined } as const) : sources.tree.resolve(typed);
  if (found.kind === "unknown" || (found.kind === "group" && found.next !== undefined)) return [];
  if (found.kind === "group") {
    if (current.startsWith("-")) {
      const app = found.path.length === 0 ? [...versionFlag.names, ...autocompletionFlag.names] : [];
      return unique([...namesOf(globalFlags), ...helpFlag.names, ...app].filter(startsWith(current)));
    }
    // After a global flag that takes a value (`mc -C <TAB>`) the shell completes a path.
    if (valueFlags(undefined).has(before.at(-1) ?? "")) return [];
    return unique(sources.tree.entries(found.path).flatMap((e) => e.names).filter(startsWith(current)));
  }
  const help = sources.command(found.path);
  if (valueFlags(help).has(before.at(-1) ?? "")) return [];
  if (current.startsWith("-")) return unique([...namesOf(help?.flags ?? []), ...namesOf(globalFlags), ...helpFlag.names].filter(startsWith(current)));
  const slash = current.indexOf("/");
  const aliases = await sources.aliases();
  if (slash > 0 && aliases.includes(current.slice(0, slash))) return unique(await sources.remote(current.slice(0, slash), current.slice(slash + 1)));
  const local = await sources.local(current);
  return unique([...aliases.map((a) => `${a}/`).filter(startsWith(current)), ...local]);
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)].sort();
}
