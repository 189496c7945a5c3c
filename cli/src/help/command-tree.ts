// The registered command paths seen as a tree: `admin kms key` is a group
// whose children are `create`, `list` (alias `ls`) and `status`.
import { groupDescriptions } from "./group-descriptions.js";

/** What the tree needs of a clipanion command class. */
export interface RegisteredCommand {
  readonly paths?: string[][];
  readonly usage?: { readonly description?: string } | undefined;
}

export interface TreeEntry {
  /** The word and its aliases (`list`, `ls`). */
  readonly names: readonly string[];
  readonly description: string;
}

/** Where a command line's words lead. */
export type Resolution =
  | { readonly kind: "command"; readonly path: readonly string[] }
  | { readonly kind: "group"; readonly path: readonly string[]; readonly next: string | undefined }
  | { readonly kind: "unknown"; readonly word: string };

export interface CommandTree {
  resolve(words: readonly string[]): Resolution;
  /** The children of a group, in registration order; [] lists the top-level commands. */
  entries(group: readonly string[]): TreeEntry[];
  /** Every group path, e.g. ["admin"], ["admin", "kms"]. */
  groups(): string[][];
  /** A group's one-line description. */
  description(group: readonly string[]): string;
}

const key = (words: readonly string[]): string => words.join(" ");
const startsWith = (path: readonly string[], prefix: readonly string[]): boolean => prefix.every((w, i) => path[i] === w);

export function createCommandTree(commands: readonly RegisteredCommand[]): CommandTree {
  const paths = commands.flatMap((c) => c.paths ?? []);
  const groupPaths = new Set(paths.flatMap((p) => p.slice(0, -1).map((_, i) => key(p.slice(0, i + 1)))));
  const describe = (path: readonly string[]): string => groupDescriptions[key(path)] ?? `${key(path)} commands`;

  return {
    resolve(words) {
      const command = paths.filter((p) => p.length <= words.length && startsWith(words, p)).sort((a, b) => b.length - a.length)[0];
      if (command) return { kind: "command", path: command };
      let depth = 0;
      while (depth < words.length && groupPaths.has(key(words.slice(0, depth + 1)))) depth++;
      if (depth === 0) return { kind: "unknown", word: words[0] ?? "" };
      return { kind: "group", path: words.slice(0, depth), next: words[depth] };
    },
    entries(group) {
      const out = new Map<string, { names: string[]; description: string }>();
      for (const command of commands) {
        for (const path of command.paths ?? []) {
          if (path.length <= group.length || !startsWith(path, group)) continue;
          const word = path[group.length] ?? "";
          const isCommand = path.length === group.length + 1;
          // A command's aliases share one line: the first name it was registered with is the key.
          const first = isCommand ? (command.paths ?? []).find((p) => p.length === path.length && startsWith(p, group))?.[group.length] ?? word : word;
          const entry = out.get(first) ?? { names: [], description: isCommand ? (command.usage?.description ?? "").split("\n")[0] ?? "" : describe([...group, word]) };
          if (!entry.names.includes(word)) entry.names.push(word);
          out.set(first, entry);
        }
      }
      return [...out.values()];
    },
    groups() {
      return [...groupPaths].map((g) => g.split(" "));
    },
    description: describe,
  };
}
