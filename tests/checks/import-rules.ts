// The rules of issue 18 over the import graph (import-graph.ts). Each returns
// its findings as lines a person can act on; an empty list means the rule holds.
// Only shipped code counts: test files, and the test workspace itself, may read
// a package's internals (white-box tests); nothing imports them.
import { isTestFile, type ImportEdge, type ImportGraph } from "./import-graph.js";

/** Packages whose files are test code as a whole. */
export const testPackages = new Set(["@mc/tests"]);

/** What carries bytes or logs: never reachable from domain code or the crypto core. */
export const transportModule = /^(nats|@nats-io\/.+|@connectrpc\/connect-node|pino(-.+)?|(node:)?(fs|fs\/promises|net|http|https|http2|tls|dgram))$/;

/** Files that must stay pure: domain code of every service and the crypto core. */
export function isPureFile(file: string): boolean {
  return !isTestFile(file) && (/(^|\/)src\/domain\//.test(file) || file.startsWith("wasm/src/"));
}

function shipped(graph: ImportGraph, edge: ImportEdge): boolean {
  const pkg = graph.files.get(edge.from);
  return !isTestFile(edge.from) && pkg !== undefined && !testPackages.has(pkg);
}

function describe(edge: ImportEdge): string {
  return `${edge.from} imports "${edge.specifier}"`;
}

/** Package-level cycles (strongly connected components of more than one package), each with the imports that close it. */
export function packageCycles(graph: ImportGraph): string[] {
  const uses = new Map<string, Map<string, ImportEdge>>();
  for (const edge of graph.edges) {
    const from = graph.files.get(edge.from);
    if (!shipped(graph, edge) || from === undefined || edge.toPackage === undefined || edge.toPackage === from) continue;
    const out = uses.get(from) ?? new Map<string, ImportEdge>();
    if (!out.has(edge.toPackage)) out.set(edge.toPackage, edge);
    uses.set(from, out);
  }
  // Tarjan's algorithm.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    onStack.add(v);
    for (const w of uses.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w !== undefined) {
          onStack.delete(w);
          component.push(w);
        }
      } while (w !== undefined && w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const p of graph.packages) if (!index.has(p.name)) visit(p.name);
  return components.map((members) => {
    const closing = members.flatMap((a) => members.flatMap((b) => {
      const edge = uses.get(a)?.get(b);
      return edge ? [`${a} -> ${b} (${describe(edge)})`] : [];
    }));
    return `package cycle ${members.join(" <-> ")}: ${closing.join("; ")}`;
  });
}

/** Imports that reach past a package's face: a relative path into another package, or a subpath its exports do not map. */
export function deepImports(graph: ImportGraph): string[] {
  const out: string[] = [];
  for (const edge of graph.edges) {
    const from = graph.files.get(edge.from);
    if (edge.specifier.startsWith(".")) {
      if (shipped(graph, edge) && edge.toPackage !== undefined && edge.toPackage !== from) {
        out.push(`${describe(edge)}: a path into ${edge.toPackage}'s files; import its face (package exports) instead`);
      }
    } else if (edge.toPackage !== undefined && edge.unresolved) {
      out.push(`${describe(edge)}: not a subpath ${edge.toPackage} exports (or its target is missing)`);
    }
  }
  return out;
}

/** `@mc/...` imports of shipped code that its package.json does not declare. */
export function undeclaredDependencies(graph: ImportGraph): string[] {
  const declared = new Map(graph.packages.map((p) => [p.name, new Set(p.dependencies)]));
  const out = new Set<string>();
  for (const edge of graph.edges) {
    const from = graph.files.get(edge.from);
    if (from === undefined || !shipped(graph, edge) || edge.specifier.startsWith(".") || edge.toPackage === undefined) continue;
    if (edge.toPackage !== from && !declared.get(from)?.has(edge.toPackage)) out.add(`${from} does not declare ${edge.toPackage} (${describe(edge)})`);
  }
  return [...out];
}

/** Transport modules reachable (at run time: type-only imports are erased) from pure files, each with one shortest chain. */
export function transportReach(graph: ImportGraph, pure: (file: string) => boolean = isPureFile): string[] {
  const byFrom = new Map<string, ImportEdge[]>();
  for (const edge of graph.edges) if (!edge.typeOnly) byFrom.set(edge.from, [...(byFrom.get(edge.from) ?? []), edge]);
  const parent = new Map<string, string | undefined>();
  const queue = [...graph.files.keys()].filter(pure).sort();
  for (const f of queue) parent.set(f, undefined);
  const out = new Set<string>();
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i] ?? "";
    for (const edge of byFrom.get(file) ?? []) {
      if (edge.external && transportModule.test(edge.specifier)) {
        const chain = [file];
        for (let p = parent.get(file); p !== undefined; p = parent.get(p)) chain.unshift(p);
        out.add(`"${edge.specifier}" is reachable from pure code: ${chain.join(" -> ")}`);
      } else if (edge.to !== undefined && !parent.has(edge.to)) {
        parent.set(edge.to, file);
        queue.push(edge.to);
      }
    }
  }
  return [...out];
}

/** Exports entries whose target is missing (a wildcard's target folder, for `*` entries). */
export function missingExports(graph: ImportGraph, exists: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const p of graph.packages) {
    for (const [key, target] of Object.entries(p.exports)) {
      const path = `${p.dir}/${target.replace(/^\.\//, "")}`;
      const probe = target.includes("*") ? path.slice(0, path.indexOf("*")) : path;
      if (!exists(probe)) out.push(`${p.name} exports "${key}" -> ${target}, which does not exist`);
    }
  }
  return out;
}
