// run-all: alone (it measures elections, failover or 2 s visibility, which a busy neighbour would distort)
// Acceptance of issue 27, Jepsen style: writers create uniquely named keys
// through the real client library while a seeded nemesis kills (-9) and
// pauses (SIGSTOP) the leader and followers and kills and pauses NATS
// servers, every kind at least once. Once healed and converged, every
// acknowledged key must be on every replica, every failure must be one of the
// honest answers issue 27 defines (503 cluster has no leader, 504 outcome
// unknown; 409 exists never, as every name is new), no write refused with 503
// may be on a replica, and a leader kill must cost writes through the
// survivors under 2 s.
// Replay a run's fault schedule with CHAOS_SEED=<printed seed>; CHAOS_MS sets the
// fault phase (default 45000, every kind at least once; CI time is the budget:
// set it longer for a soak), CHAOS_WRITERS
// the writer count (default 7).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitFor } from "../harness/wait-for.js";
import { observeCreateAnswers } from "./chaos-answers.js";
import { runViolations, violations } from "./chaos-checks.js";
import { chaosClusterId, createChaosCluster, type ChaosSetup } from "./chaos-cluster.js";
import { chaosSeed, faultKinds, runNemesis } from "./chaos-nemesis.js";
import { summary } from "./chaos-summary.js";
import { startWriters } from "./chaos-writers.js";
import type { Fault } from "./chaos-checks.js";

interface Ctx {
  cluster: ChaosSetup | undefined;
}

const writerCount = Number(process.env.CHAOS_WRITERS ?? 7);
const chaosMs = Number(process.env.CHAOS_MS ?? 45000);

const chaos = suite<Ctx>("kms cluster chaos (3 kms + 3 nats-server, seeded nemesis)", { cluster: undefined });

chaos.before(async (ctx) => {
  ctx.cluster = createChaosCluster();
  await ctx.cluster.start();
});

chaos.after(async (ctx) => {
  await ctx.cluster?.stop();
});

chaos("should keep every acknowledged create and answer only honestly under kill -9, SIGSTOP and NATS faults", async (ctx) => {
  const cluster = ctx.cluster;
  assert.ok(cluster, "the cluster started");
  const seed = chaosSeed();
  const t0 = Date.now();
  const log = (line: string): void => {
    process.stdout.write(`  [chaos ${new Date().toISOString()} +${((Date.now() - t0) / 1000).toFixed(1)}s] ${line}\n`);
  };
  log(`seed ${seed} (replay with CHAOS_SEED=${seed}), ${writerCount} writers, faults for ${chaosMs} ms`);

  const answers = observeCreateAnswers();
  const writers = startWriters(await cluster.writerClients(writerCount), answers);
  let faults: Fault[] = [];
  try {
    await waitFor(() => writers.outcomes.filter((o) => o.result.kind === "ok").length >= 30, { what: "30 creations before any fault", timeoutMs: 30000, intervalMs: 100 });
    faults = await runNemesis(cluster, { seed, durationMs: chaosMs, log });
    // Healed: the writers must get through again before they stop.
    const healed = Date.now();
    await waitFor(() => writers.outcomes.some((o) => o.startedAt >= healed && o.result.kind === "ok"), { what: "an acknowledged create after healing", timeoutMs: 30000, intervalMs: 100 });
  } finally {
    log("stopping the writers");
    await writers.stop();
    answers.stop();
  }
  const outcomes = writers.outcomes;
  const index = await cluster.converged();
  log(`every node applied index ${index}`);
  const replicas = await cluster.replicas();
  for (const line of summary(outcomes, faults, replicas)) log(line);

  const found = [...violations(outcomes, replicas, [chaosClusterId]), ...runViolations(faults, faultKinds, outcomes, replicas)];
  for (const v of found) log(`VIOLATION ${v}`);
  assert.equal(found, [], `seed ${seed}: ${found.length} check(s) failed`);
});

chaos.run();
