// Reads the layout of mc's sources (cli/src): which folder imports which, and
// where each command file sits against the command path it declares. Plain
// text scanning, so the checks also run on the small trees their tests build.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** Every `.ts` file under `dir` (tests included), as absolute paths. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out.sort();
}

/** The relative module specifiers a file imports or re-exports (static and dynamic). */
export function relativeImports(text: string): string[] {
  const specifiers = text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g);
  return [...specifiers].map((m) => m[1] ?? "");
}

/** One folder importing another: the folder is the directory a file sits in directly (not its subfolders). */
export interface FolderEdge {
  readonly from: string;
  readonly to: string;
  /** One importing file and the file it imports, relative to the source root, for the message. */
  readonly example: string;
}

const folderOf = (root: string, file: string): string => relative(root, dirname(file)).split(sep).join("/") || ".";

/** Edges between the folders of `root`, from each file's relative imports that stay inside `root`. */
export function folderEdges(root: string): FolderEdge[] {
  const edges = new Map<string, FolderEdge>();
  for (const file of sourceFiles(root)) {
    for (const spec of relativeImports(readFileSync(file, "utf8"))) {
      const target = resolve(dirname(file), spec);
      if (relative(root, target).startsWith("..")) continue;
      const from = folderOf(root, file);
      const to = folderOf(root, target);
      const key = `${from}\n${to}`;
      if (from !== to && !edges.has(key)) {
        edges.set(key, { from, to, example: `${relative(root, file).split(sep).join("/")} -> ${relative(root, target).split(sep).join("/")}` });
      }
    }
  }
  return [...edges.values()];
}

/** Pairs of folders that import each other, one line each naming a file of each direction. */
export function twoWayImports(root: string): string[] {
  const edges = folderEdges(root);
  const byKey = new Map(edges.map((e) => [`${e.from}\n${e.to}`, e]));
  const out: string[] = [];
  for (const e of edges) {
    const back = byKey.get(`${e.to}\n${e.from}`);
    if (back && e.from < e.to) out.push(`${e.from} <-> ${e.to}: ${e.example}; ${back.example}`);
  }
  return out;
}

/** A command file's path under commands/ as words: `ilm/rule/add.ts` → ["ilm", "rule", "add"]. */
export function pathOfFile(commandsDir: string, file: string): string[] {
  return relative(commandsDir, file).split(sep).join("/").replace(/\.ts$/, "").split("/");
}

/** The class a command file must export: `ilm/rule/add.ts` → `IlmRuleAddCommand`. */
export function classNameOf(words: readonly string[]): string {
  return `${words.flatMap((w) => w.split("-")).map((w) => `${w.charAt(0).toUpperCase()}${w.slice(1)}`).join("")}Command`;
}

/** Command files: everything under commands/ but the registry and tests. */
export function commandFiles(commandsDir: string): string[] {
  return sourceFiles(commandsDir).filter((f) => !f.endsWith(".test.ts") && f !== join(commandsDir, "index.ts"));
}

/**
 * Files whose place differs from what they declare: each command file
 * exports one class, named after its path, whose first `static paths` entry
 * is the file's path (later entries are aliases: `ilm rule ls`).
 */
export function misplacedCommands(commandsDir: string): string[] {
  const out: string[] = [];
  for (const file of commandFiles(commandsDir)) {
    const rel = relative(commandsDir, file).split(sep).join("/");
    const words = pathOfFile(commandsDir, file);
    const text = readFileSync(file, "utf8");
    const classes = [...text.matchAll(/^export (?:abstract )?class (\w+)/gm)].map((m) => m[1] ?? "");
    const declared = [...text.matchAll(/static (?:override )?paths = (\[\[.*?\]\]);/g)].map((m) => JSON.parse(m[1] ?? "[]") as string[][]);
    const first = declared[0]?.[0];
    if (classes.length !== 1 || declared.length !== 1 || first === undefined) {
      out.push(`${rel}: a command file exports exactly one command class with static paths (found ${classes.length} classes, ${declared.length} paths)`);
    } else if (first.join(" ") !== words.join(" ")) {
      out.push(`${rel}: declares \`mc ${first.join(" ")}\`; its file would be commands/${first.join("/")}.ts`);
    } else if (classes[0] !== classNameOf(words)) {
      out.push(`${rel}: exports ${classes[0] ?? ""}; its class is ${classNameOf(words)}`);
    }
  }
  return out;
}

/** Folders that import each other round a longer cycle (a -> b -> c -> a): each such group of three or more, sorted. */
export function folderCycles(root: string): string[][] {
  const next = new Map<string, string[]>();
  for (const e of folderEdges(root)) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) group.push(w);
      if (group.length > 2) out.push(group.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) connect(v);
  return out;
}
