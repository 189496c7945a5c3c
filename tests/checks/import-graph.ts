// Reads the import graph of the repository's workspace packages (issue 18):
// every source file, what it imports, and where each import lands (a file of
// which package, reached through which face, or an outside module). The rules
// that judge the graph are in import-rules.ts; both are pure functions of a
// folder, so the checks can be shown to fail on small synthetic trees.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

export interface WorkspacePackage {
  /** e.g. `@mc/kms`. */
  name: string;
  /** Folder relative to the root, with `/` separators, e.g. `services/kms`. */
  dir: string;
  /** The package face: subpath (`.`, `./client`, `./gen/*`) to target. */
  exports: Record<string, string>;
  /** Declared dependencies (runtime and dev) by name. */
  dependencies: string[];
}

export interface ImportEdge {
  /** Importing file, relative to the root. */
  from: string;
  specifier: string;
  /** Resolved file, relative to the root, when it is a file of the repository. */
  to?: string;
  /** Package of `to`, or the workspace package a bare specifier names even when its face does not map it. */
  toPackage?: string;
  /** Set for a bare specifier that names no workspace package (`nats`, `node:fs`, `@connectrpc/connect-node`). */
  external?: boolean;
  /** True for an `@mc/...` specifier its package's exports do not map, or a relative path to no file. */
  unresolved?: boolean;
  /** `import type` / `export type`: erased at run time. */
  typeOnly: boolean;
}

export interface ImportGraph {
  root: string;
  packages: WorkspacePackage[];
  /** Every source file (relative to the root) to its package's name. */
  files: Map<string, string>;
  edges: ImportEdge[];
}

const sourceExt = /\.(ts|mts|js|mjs)$/;
const skipDirs = new Set(["node_modules", "dist", ".data", "output", ".git"]);

/** A test file: not part of what its package ships (white-box tests may read internals). */
export function isTestFile(file: string): boolean {
  return /\.test\.[mc]?[tj]s$/.test(file);
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
}

function toPosix(path: string): string {
  return path.split(sep).join("/");
}

/** The workspace packages listed by the root package.json (plain folder names, no globs). */
export function readPackages(root: string): WorkspacePackage[] {
  const workspaces = (readJson(join(root, "package.json")).workspaces ?? []) as string[];
  return workspaces.map((dir) => {
    const pkg = readJson(join(root, dir, "package.json"));
    const exp = pkg.exports;
    const exports = typeof exp === "string" ? { ".": exp } : ((exp ?? {}) as Record<string, string>);
    const deps = { ...(pkg.dependencies as object | undefined), ...(pkg.devDependencies as object | undefined) };
    return { name: String(pkg.name), dir: toPosix(dir), exports, dependencies: Object.keys(deps) };
  });
}

function listSources(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.isDirectory()) {
        if (!skipDirs.has(entry.name)) walk(join(abs, entry.name));
      } else if (sourceExt.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        out.push(toPosix(relative(root, join(abs, entry.name))));
      }
    }
  };
  if (existsSync(join(root, dir))) walk(join(root, dir));
  return out;
}

/** The file a path names, the way tsx and TypeScript's NodeNext resolution find it (`./x.js` may be `x.ts`). */
export function resolveFile(abs: string): string | undefined {
  const candidates = [abs];
  const m = /\.(m?)js$/.exec(abs);
  if (m) candidates.push(abs.slice(0, -m[0].length) + `.${m[1] ?? ""}ts`);
  if (!sourceExt.test(abs)) candidates.push(`${abs}.ts`, `${abs}.js`, join(abs, "index.ts"), join(abs, "index.js"));
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** The target of a subpath through an exports map (exact keys first, then one `*` pattern). */
export function exportTarget(exports: Record<string, string>, subpath: string): string | undefined {
  const exact = exports[subpath];
  if (typeof exact === "string") return exact;
  for (const [key, target] of Object.entries(exports)) {
    const star = key.indexOf("*");
    if (star < 0 || typeof target !== "string") continue;
    const [head, tail] = [key.slice(0, star), key.slice(star + 1)];
    if (subpath.startsWith(head) && subpath.endsWith(tail) && subpath.length >= head.length + tail.length) {
      return target.replace("*", subpath.slice(head.length, subpath.length - tail.length));
    }
  }
  return undefined;
}

/** Specifiers imported only by `import type` / `export type` statements (erased at run time). */
function typeOnlySpecifiers(source: string): Set<string> {
  const typed = new Set<string>();
  const value = new Set<string>();
  for (const m of source.matchAll(/^\s*(?:import|export)\s+(type\s)?[^;]*?\sfrom\s*["']([^"']+)["']/gm)) (m[1] ? typed : value).add(m[2] ?? "");
  for (const m of source.matchAll(/\bimport\s*\(?\s*["']([^"']+)["']/g)) value.add(m[1] ?? "");
  return new Set([...typed].filter((s) => !value.has(s)));
}

export function readImportGraph(root: string): ImportGraph {
  const packages = readPackages(root);
  const byName = new Map(packages.map((p) => [p.name, p]));
  // Longest folder first, so a package nested in another's folder wins.
  const byDir = [...packages].sort((a, b) => b.dir.length - a.dir.length);
  const packageOf = (file: string): string | undefined => byDir.find((p) => file === p.dir || file.startsWith(`${p.dir}/`))?.name;
  const files = new Map<string, string>();
  for (const p of packages) for (const f of listSources(root, p.dir)) files.set(f, packageOf(f) ?? p.name);
  const edges: ImportEdge[] = [];
  for (const from of files.keys()) {
    const source = readFileSync(join(root, from), "utf8");
    const typeOnly = typeOnlySpecifiers(source);
    const { importedFiles } = ts.preProcessFile(source, true, true);
    for (const { fileName: specifier } of importedFiles) {
      const edge: ImportEdge = { from, specifier, typeOnly: typeOnly.has(specifier) };
      let abs: string | undefined;
      if (specifier.startsWith(".")) {
        abs = resolve(root, dirname(from), specifier);
      } else {
        const [scope = "", name = ""] = specifier.split("/");
        const pkgName = scope.startsWith("@") ? `${scope}/${name}` : scope;
        const pkg = byName.get(pkgName);
        if (!pkg) {
          edge.external = true;
          edges.push(edge);
          continue;
        }
        edge.toPackage = pkg.name;
        const target = exportTarget(pkg.exports, `.${specifier.slice(pkgName.length)}`);
        if (target !== undefined) abs = resolve(root, pkg.dir, target);
      }
      const file = abs === undefined ? undefined : resolveFile(abs);
      if (file === undefined) {
        edge.unresolved = true;
      } else {
        edge.to = toPosix(relative(root, file));
        const toPackage = packageOf(edge.to);
        if (toPackage !== undefined) edge.toPackage = toPackage;
      }
      edges.push(edge);
    }
  }
  return { root, packages, files, edges };
}
