import { createPrng } from "../domain/prng.js";
import type { CheckResult } from "./linearizability.js";

export interface SimParams {
  readonly voters: 3 | 5;
  /** Extra nodes outside the first configuration, added and removed by the nemesis. */
  readonly spares: number;
  readonly loss: number;
  readonly duplicate: number;
  readonly membership: boolean;
  readonly snapshotEvery: number;
  readonly activeMs: number;
  readonly settleMs: number;
  readonly clients: number;
  readonly faultEveryMs: number;
  /** Off in some seeds: then only the heartbeat round keeps ReadIndex safe (no lease-like step-down). */
  readonly checkQuorum: boolean;
}

export interface SimReport {
  readonly seed: number;
  readonly params: SimParams;
  readonly ok: boolean;
  readonly error?: string;
  readonly replay: string;
  readonly events: number;
  readonly leaderTerms: number;
  readonly opsOk: number;
  readonly opsUnknown: number;
  readonly commitIndex: number;
  readonly linearizable: CheckResult;
  readonly traceHash: string;
  /** How often each fault and feature was exercised in this run. */
  readonly counts: Readonly<Record<"crashes" | "lostWrites" | "partitions" | "transfers" | "configChanges" | "snapshotsInstalled" | "compactions", number>>;
}

export function paramsForSeed(seed: number): SimParams {
  const rng = createPrng(seed ^ 0x5eed);
  const voters = rng() < 0.5 ? 3 : 5;
  const membership = rng() < 0.35;
  return {
    voters,
    spares: membership ? 1 : 0,
    loss: [0, 0.05, 0.2][Math.floor(rng() * 3)] ?? 0,
    duplicate: rng() < 0.5 ? 0.03 : 0,
    membership,
    snapshotEvery: 15 + Math.floor(rng() * 30),
    activeMs: 1500,
    settleMs: 1200,
    clients: 3,
    faultEveryMs: 120 + Math.floor(rng() * 200),
    checkQuorum: rng() < 0.5,
  };
}

/**
 * Every fault the simulator models at the most it ever draws for a seed:
 * the highest loss and duplication, membership churn with a spare node, a
 * fault every 120 ms (the shortest interval) and a snapshot every 15 entries.
 */
export const maxFaults: Partial<SimParams> = { loss: 0.2, duplicate: 0.03, membership: true, spares: 1, faultEveryMs: 120, snapshotEvery: 15 };

export function replayCommand(seed: number, max = false): string {
  return `npm run sim -- --seeds 1 --from ${seed}${max ? " --max-faults" : ""}`;
}

