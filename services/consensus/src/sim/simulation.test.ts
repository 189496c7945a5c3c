import { test } from "uvu";
import * as assert from "uvu/assert";
import { runSimulation } from "./simulation.js";

// 300 seeds per test run (about 4 s); `npm run sim -- --seeds N --from S` for more.
const seeds = Number(process.env["SIM_SEEDS"] ?? 300);

test(`${seeds} seeded schedules keep every safety property and a linearizable history`, () => {
  const failures: string[] = [];
  let ops = 0;
  const kinds = new Set<string>();
  const totals: Record<string, number> = {};
  for (let seed = 1; seed <= seeds; seed++) {
    const r = runSimulation(seed);
    ops += r.opsOk;
    kinds.add(`${r.params.voters}/${r.params.loss}/${r.params.membership}`);
    for (const [k, v] of Object.entries(r.counts)) totals[k] = (totals[k] ?? 0) + v;
    if (!r.ok) failures.push(`${r.error ?? ""}\n    replay: ${r.replay}`);
  }
  assert.equal(failures, [], failures.join("\n"));
  assert.ok(ops > seeds * 50, `only ${ops} client operations completed`);
  // Every mix of group size, loss rate and membership churn was exercised.
  assert.ok(kinds.size >= 10, [...kinds].join(" "));
  // ...and every fault and feature happened many times.
  for (const k of ["crashes", "lostWrites", "partitions", "transfers", "configChanges", "snapshotsInstalled", "compactions"]) {
    assert.ok((totals[k] ?? 0) >= 20, `${k}: ${totals[k] ?? 0} ${JSON.stringify(totals)}`);
  }
});

test("one seed replays to the same trace", () => {
  const a = runSimulation(4242);
  const b = runSimulation(4242);
  assert.is(a.traceHash, b.traceHash);
  assert.is(a.events, b.events);
  assert.is(runSimulation(4243).traceHash === a.traceHash, false);
});

test("a run without faults elects one leader and completes every operation", () => {
  const r = runSimulation(7, { loss: 0, duplicate: 0, faultEveryMs: 1e9, membership: false, spares: 0 });
  assert.ok(r.ok, r.error);
  assert.is(r.leaderTerms, 1);
  assert.is(r.opsUnknown, 0);
});

test("a failing run names the broken property and the command that replays it", () => {
  // No time to recover after the faults stop: the liveness check must fail.
  const r = runSimulation(11, { settleMs: 0 });
  assert.is(r.ok, false);
  assert.match(r.error ?? "", /liveness|linearizability/);
  assert.is(r.replay, "npm run sim -- --seeds 1 --from 11");
});

test.run();
