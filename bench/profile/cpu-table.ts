// Reads V8 .cpuprofile files and prints where the time went: self time by
// category (the first rule whose pattern matches a frame's function or
// script) and the top functions. Used by the profile harnesses of issue 21.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
interface Profile {
  readonly startTime: number;
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export type Rule = readonly [category: string, pattern: RegExp];

const label = (n: ProfileNode): string => {
  const file = n.callFrame.url.split("/").slice(-2).join("/");
  return `${n.callFrame.functionName || "(anonymous)"} ${file}${file ? `:${n.callFrame.lineNumber + 1}` : ""}`;
};

/** A window of the monotonic clock, in µs (process.hrtime.bigint() / 1000n: V8's profile clock). */
export interface Window {
  readonly fromUs: number;
  readonly toUs: number;
}

export const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** Each sample's node id and duration (µs), only those inside `window` when given. */
function forEachSample(p: Profile, window: Window | undefined, visit: (id: number, deltaUs: number) => void): void {
  let at = p.startTime;
  p.samples.forEach((id, i) => {
    const delta = p.timeDeltas[i] ?? 0;
    at += delta;
    if (!window || (at >= window.fromUs && at <= window.toUs)) visit(id, delta);
  });
}

/** Self time (µs) per frame label over every profile in `dir`, only samples inside `window` when given (start-up left out). */
export async function selfTimes(dir: string, window?: Window): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const file of (await readdir(dir)).filter((f) => f.endsWith(".cpuprofile"))) {
    const p = JSON.parse(await readFile(join(dir, file), "utf8")) as Profile;
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    forEachSample(p, window, (id, delta) => {
      const n = byId.get(id);
      if (n) out.set(label(n), (out.get(label(n)) ?? 0) + delta);
    });
  }
  return out;
}

/** The table: per category µs per operation and share of the busy time; then the top frames. */
export function printTable(times: Map<string, number>, rules: readonly Rule[], operations: number, top = 15): void {
  const idle = [...times].filter(([k]) => k.startsWith("(idle)")).reduce((s, [, v]) => s + v, 0);
  const busy = [...times].reduce((s, [, v]) => s + v, 0) - idle;
  const byCategory = new Map<string, number>();
  for (const [k, v] of times) {
    if (k.startsWith("(idle)")) continue;
    const category = rules.find(([, re]) => re.test(k))?.[0] ?? "other JavaScript";
    byCategory.set(category, (byCategory.get(category) ?? 0) + v);
  }
  const row = (name: string, us: number): string => `${name.padEnd(40)}${(us / operations).toFixed(1).padStart(10)} µs/op${((100 * us) / busy).toFixed(1).padStart(8)} %`;
  process.stdout.write(`busy CPU ${(busy / 1e6).toFixed(2)} s over ${operations} operations (${(busy / operations).toFixed(1)} µs each); idle ${(idle / 1e6).toFixed(2)} s\n`);
  for (const [name, us] of [...byCategory].sort((a, b) => b[1] - a[1])) process.stdout.write(`${row(name, us)}\n`);
  process.stdout.write(`top ${top} functions by self time:\n`);
  for (const [name, us] of [...times].filter(([k]) => !k.startsWith("(idle)")).sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`  ${row(name, us)}\n`);
}

/**
 * Time (µs) per category where a sample's category is decided by the frame
 * nearest its leaf that a `specific` rule matches (socket reads of NATS and
 * of client TLS share leaf frames; only the callers tell them apart), else
 * by a `generic` rule on the leaf. Also returns the leaf self times.
 */
export async function stackCategories(dir: string, rules: { readonly specific: readonly Rule[]; readonly generic: readonly Rule[] }, window?: Window): Promise<{ categories: Map<string, number>; self: Map<string, number> }> {
  const categories = new Map<string, number>();
  const self = new Map<string, number>();
  for (const file of (await readdir(dir)).filter((f) => f.endsWith(".cpuprofile"))) {
    const p = JSON.parse(await readFile(join(dir, file), "utf8")) as Profile;
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const categoryOf = new Map<number, string>();
    const classify = (id: number): string => {
      const known = categoryOf.get(id);
      if (known !== undefined) return known;
      const labels: string[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const n = byId.get(at);
        // The whole script URL: a package is told apart by its node_modules path.
        if (n) labels.push(`${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url}`);
      }
      const leaf = labels[0] ?? "";
      const nearest = (): string | undefined => {
        for (const l of labels) {
          const hit = rules.specific.find(([, re]) => re.test(l));
          if (hit) return hit[0];
        }
        return rules.generic.find(([, re]) => re.test(leaf))?.[0];
      };
      const category = leaf.startsWith("(idle)") ? "(idle)" : (nearest() ?? "other JavaScript");
      categoryOf.set(id, category);
      return category;
    };
    forEachSample(p, window, (id, delta) => {
      const n = byId.get(id);
      if (!n) return;
      const c = classify(id);
      categories.set(c, (categories.get(c) ?? 0) + delta);
      self.set(label(n), (self.get(label(n)) ?? 0) + delta);
    });
  }
  return { categories, self };
}

/** Like printTable, with categories already summed (stackCategories). */
export function printCategories(r: { categories: Map<string, number>; self: Map<string, number> }, operations: number, top = 15): void {
  const idle = r.categories.get("(idle)") ?? 0;
  const busy = [...r.categories].reduce((s, [, v]) => s + v, 0) - idle;
  const row = (name: string, us: number): string => `${name.padEnd(44)}${(us / operations).toFixed(1).padStart(10)} µs/op${((100 * us) / busy).toFixed(1).padStart(8)} %`;
  process.stdout.write(`busy CPU ${(busy / 1e6).toFixed(2)} s over ${operations} operations (${(busy / operations).toFixed(1)} µs each); idle ${(idle / 1e6).toFixed(2)} s\n`);
  for (const [name, us] of [...r.categories].filter(([k]) => k !== "(idle)").sort((a, b) => b[1] - a[1])) process.stdout.write(`${row(name, us)}\n`);
  process.stdout.write(`top ${top} functions by self time:\n`);
  for (const [name, us] of [...r.self].filter(([k]) => !k.startsWith("(idle)")).sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`  ${row(name, us)}\n`);
}
