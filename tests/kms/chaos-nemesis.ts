// The nemesis: one fault at a time, chosen and timed by a seeded PRNG so a
// failing run can be replayed (CHAOS_SEED), each healed before the next, so a
// majority of KMS nodes is always up. Every kind of fault runs at least once
// per run: the schedule opens with all of them in a seeded order, then picks
// at random until the time is up.
import { setTimeout as delay } from "node:timers/promises";
import { createPrng } from "@mc/consensus";
import type { ChaosNats, ChaosNatsNode } from "./chaos-nats.js";
import type { Fault } from "./chaos-checks.js";
import type { Member } from "./cluster-harness.js";

/** The seed from CHAOS_SEED, else a fresh one (printed by the caller so the run can be replayed). */
export function chaosSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = Number(env.CHAOS_SEED);
  return env.CHAOS_SEED !== undefined && Number.isInteger(given) ? given >>> 0 : Math.floor(Math.random() * 2 ** 31);
}

export interface ChaosCluster {
  readonly members: readonly Member[];
  readonly nats: ChaosNats;
  /** The member every live node agrees leads; waits for one. */
  leader(): Promise<Member>;
  /** Starts a killed member again on its own data directory and waits until it is ready. */
  restart(m: Member): Promise<void>;
}

export interface NemesisOptions {
  readonly seed: number;
  readonly durationMs: number;
  readonly log: (line: string) => void;
}

export const faultKinds = ["kill-leader", "kill-follower", "pause-leader", "pause-follower", "kill-nats", "pause-nats"] as const;
export type FaultKind = (typeof faultKinds)[number];

/** Every kind once in an order drawn from `random` (Fisher-Yates): the opening of each run's schedule. */
export function openingKinds(random: () => number): FaultKind[] {
  const kinds: FaultKind[] = [...faultKinds];
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j] as FaultKind, kinds[i] as FaultKind];
  }
  return kinds;
}

/**
 * Injects faults until `durationMs` has passed and every kind ran once (so a
 * slow machine stretches the run rather than skip a kind); resolves with
 * every fault once the last one is healed.
 */
export async function runNemesis(cluster: ChaosCluster, o: NemesisOptions): Promise<Fault[]> {
  const random = createPrng(o.seed);
  const between = (lo: number, hi: number): number => Math.round(lo + random() * (hi - lo));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const opening = openingKinds(random);
  const faults: Fault[] = [];
  const end = Date.now() + o.durationMs;
  while (Date.now() < end || opening.length > 0) {
    await delay(between(1500, 5000));
    if (Date.now() >= end && opening.length === 0) break;
    const kind = opening.shift() ?? pick(faultKinds);
    // Only a settled cluster is hit again: the node healed last is back and a leader is agreed.
    const leader = await cluster.leader();
    if (kind === "kill-nats" || kind === "pause-nats") {
      const node = pick(cluster.nats.nodes);
      faults.push(await (kind === "kill-nats" ? killNats(cluster.nats, node, between(1000, 4000), o.log) : pauseNats(cluster.nats, node, between(1000, 3000), o.log)));
      continue;
    }
    const onLeader = kind.endsWith("-leader");
    const target = onLeader ? leader : pick(cluster.members.filter((m) => m !== leader));
    const hold = kind.startsWith("pause") ? between(1000, 3000) : between(1000, 4000);
    faults.push(await hitMember(cluster, target, kind, onLeader, hold, o.log));
  }
  return faults;
}

async function hitMember(cluster: ChaosCluster, m: Member, kind: FaultKind, leader: boolean, holdMs: number, log: (l: string) => void): Promise<Fault> {
  const child = m.proc?.child;
  const at = Date.now();
  if (kind.startsWith("pause")) {
    log(`${kind} ${m.host}: SIGSTOP for ${holdMs} ms`);
    child?.kill("SIGSTOP");
    await delay(holdMs);
    child?.kill("SIGCONT");
    log(`${kind} ${m.host}: SIGCONT`);
  } else {
    log(`${kind} ${m.host}: kill -9, down for ${holdMs} ms`);
    await m.proc?.kill();
    await delay(holdMs);
    await cluster.restart(m);
    log(`${kind} ${m.host}: restarted and ready after ${Date.now() - at} ms`);
  }
  return { kind, target: m.host, at, healedAt: Date.now(), leader };
}

async function killNats(nats: ChaosNats, node: ChaosNatsNode, holdMs: number, log: (l: string) => void): Promise<Fault> {
  const at = Date.now();
  log(`kill-nats ${node.name} (port ${node.port}): kill -9, down for ${holdMs} ms`);
  await nats.kill(node);
  await delay(holdMs);
  await nats.restart(node);
  log(`kill-nats ${node.name}: restarted and routed after ${Date.now() - at} ms`);
  return { kind: "kill-nats", target: node.name, at, healedAt: Date.now(), leader: false };
}

async function pauseNats(nats: ChaosNats, node: ChaosNatsNode, holdMs: number, log: (l: string) => void): Promise<Fault> {
  const at = Date.now();
  log(`pause-nats ${node.name} (port ${node.port}): SIGSTOP for ${holdMs} ms`);
  nats.pause(node);
  await delay(holdMs);
  await nats.resume(node);
  log(`pause-nats ${node.name}: SIGCONT, routed after ${Date.now() - at} ms`);
  return { kind: "pause-nats", target: node.name, at, healedAt: Date.now(), leader: false };
}
