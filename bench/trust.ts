// Whether a bench's figures can be trusted (issue 21): each side runs at
// least three times, alternating with its peer; the median is compared and
// each side's spread, (max - min) / median, is printed. Past 20% the
// machine's load changed during the runs and the ratio says little.

export const trustedSpread = 0.2;

/** The run with the median value (its other figures kept with it). */
export function medianRun<T>(runs: readonly T[], value: (r: T) => number): T {
  const mid = [...runs].sort((a, b) => value(a) - value(b))[Math.floor(runs.length / 2)];
  if (mid === undefined) throw new Error("no runs");
  return mid;
}

/** (max - min) / median of the runs' values. */
export function spreadOf<T>(runs: readonly T[], value: (r: T) => number): number {
  const v = runs.map(value).sort((a, b) => a - b);
  return ((v.at(-1) ?? 0) - (v[0] ?? 0)) / (value(medianRun(runs, value)) || 1);
}

/** The verdict line ("" when trusted), from the number of runs and each side's spread. */
export function trustLine(rounds: number, spreads: Readonly<Record<string, number>>): string {
  if (rounds < 3) return "  NOT TRUSTED: fewer than 3 runs per side\n";
  const wide = Object.entries(spreads).filter(([, s]) => s > trustedSpread).map(([name, s]) => `${name} ${(100 * s).toFixed(0)}%`);
  if (wide.length === 0) return "";
  return `  NOT TRUSTED: spread over ${100 * trustedSpread}% (${wide.join(", ")}): the machine's load changed during the runs; check uptime and run again\n`;
}
