/**
 * Seeds that once failed, kept for good: the suite runs every one of them on
 * every commit. Add each new failing seed here with the cause in one line,
 * and `maxFaults: true` when it failed under `--max-faults`.
 */
export interface RegressionSeed {
  readonly seed: number;
  readonly maxFaults?: boolean;
  readonly cause: string;
}

export const regressionSeeds: readonly RegressionSeed[] = [
  { seed: 7301321, cause: "checker: a stale leader of term 2 lacked 6/1, which the leader of term 3 committed (commit term, not entry term)" },
  { seed: 8002312, cause: "checker: a stale leader of term 3 lacked 12/2, which the leader of term 4 committed (commit term, not entry term)" },
];
