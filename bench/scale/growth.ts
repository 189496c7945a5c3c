// Growth of one measured quantity across sizes: the factor against the
// previous size, and a verdict from the exponent k of time ~ size^k.
import { readFile } from "node:fs/promises";

export interface Series {
  readonly name: string;
  readonly unit: string;
  /** One value per size, in the order of `sizes`. */
  readonly values: readonly number[];
  /** A request path that should cost its page: anything above "flat" is flagged. */
  readonly perPage?: boolean;
  /** Values at or below this are noise (an allocator's few MiB): a step between two such values is no growth. Default 0.1. */
  readonly floor?: number;
}

const fmt = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

function verdict(s: Series, sizes: readonly number[]): string {
  const steps: string[] = [];
  let worst = Number.NEGATIVE_INFINITY;
  for (let i = 1; i < sizes.length; i++) {
    const a = s.values[i - 1] ?? 0;
    const b = s.values[i] ?? 0;
    const n = (sizes[i] ?? 1) / (sizes[i - 1] ?? 1);
    // Below the floor (a tenth of a millisecond or KiB unless the series says) the ratio is noise: no growth.
    const floor = s.floor ?? 0.1;
    const k = a <= floor && b <= floor ? 0 : Math.log(Math.max(b, 1e-6) / Math.max(a, 1e-6)) / Math.log(n);
    worst = Math.max(worst, k);
    if (k > 1.2) steps.push(`grows faster than linear from ${sizes[i - 1]} to ${sizes[i]} (x${(b / a).toFixed(1)} for x${n.toFixed(0)})`);
  }
  if (steps.length > 0) return steps.join("; ");
  if (worst <= 0.25) return s.perPage ? "flat (costs its page)" : "sub-linear (flat)";
  if (worst < 0.8) return "sub-linear";
  return s.perPage ? "linear (a request path growing with the catalog/keyspace)" : "linear";
}

/** Prints one table: a row per series, values per size, factor per step, verdict. */
export function printGrowth(title: string, sizes: readonly number[], series: readonly Series[]): void {
  process.stdout.write(`\n${title}\n`);
  process.stdout.write(`  ${"measure".padEnd(44)}${sizes.map((n) => String(n).padStart(11)).join("")}   growth per step   verdict\n`);
  for (const s of series) {
    const factors = s.values.slice(1).map((v, i) => {
      const prev = s.values[i] ?? 0;
      return prev > 0 ? `x${(v / prev).toFixed(2)}` : "-";
    });
    process.stdout.write(`  ${`${s.name} (${s.unit})`.padEnd(44)}${s.values.map((v) => fmt(v).padStart(11)).join("")}   ${factors.join(" ").padEnd(16)}  ${verdict(s, sizes)}\n`);
  }
}

/** Resident and peak resident memory of a process, KiB (Linux /proc). */
export async function memoryOf(pid: number): Promise<{ rssKiB: number; peakKiB: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
  return { rssKiB: field("VmRSS"), peakKiB: field("VmHWM") };
}

export function quantile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

export function median(values: readonly number[]): number {
  return quantile([...values].sort((a, b) => a - b), 0.5);
}

/** Milliseconds of one awaited call. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await work();
  return { ms: performance.now() - t, value };
}
