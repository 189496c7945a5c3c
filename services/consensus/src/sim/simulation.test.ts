import { test } from "uvu";
import * as assert from "uvu/assert";
import { commitSeedBase } from "./commit-seeds.js";
import { regressionSeeds } from "./regression-seeds.js";
import { maxFaults, runSimulation, type SimParams } from "./simulation.js";

// 300 fixed seeds plus 300 taken from the commit under test (about 5 s in
// all), and every seed that ever failed; `npm run sim -- --seeds N --from S`
// for more.
const seeds = Number(process.env["SIM_SEEDS"] ?? 300);
const fresh = commitSeedBase();

function runRange(from: number, count: number, overrides: Partial<SimParams> = {}): { failures: string[]; ops: number; kinds: Set<string>; totals: Record<string, number> } {
  const failures: string[] = [];
  let ops = 0;
  const kinds = new Set<string>();
  const totals: Record<string, number> = {};
  for (let seed = from; seed < from + count; seed++) {
    const r = runSimulation(seed, overrides);
    ops += r.opsOk;
    kinds.add(`${r.params.voters}/${r.params.loss}/${r.params.membership}`);
    for (const [k, v] of Object.entries(r.counts)) totals[k] = (totals[k] ?? 0) + v;
    if (!r.ok) failures.push(`${r.error ?? ""}\n    replay: ${r.replay} --verbose`);
  }
  return { failures, ops, kinds, totals };
}

test(`${seeds} fixed seeded schedules keep every safety property and a linearizable history`, () => {
  const { failures, ops, kinds, totals } = runRange(1, seeds);
  assert.equal(failures, [], failures.join("\n"));
  assert.ok(ops > seeds * 50, `only ${ops} client operations completed`);
  // Every mix of group size, loss rate and membership churn was exercised.
  assert.ok(kinds.size >= 10, [...kinds].join(" "));
  // ...and every fault and feature happened many times.
  for (const k of ["crashes", "lostWrites", "partitions", "transfers", "configChanges", "snapshotsInstalled", "compactions"]) {
    assert.ok((totals[k] ?? 0) >= 20, `${k}: ${totals[k] ?? 0} ${JSON.stringify(totals)}`);
  }
});

test(`${seeds} seeds of this commit (new ground on every commit)`, () => {
  process.stdout.write(`\n  simulation: seeds ${fresh.from}..${fresh.from + seeds - 1} from ${fresh.source}; replay one with npm run sim -- --seeds 1 --from SEED --verbose\n`);
  const { failures } = runRange(fresh.from, seeds);
  assert.equal(failures, [], `add each failing seed to regression-seeds.ts:\n${failures.join("\n")}`);
});

test(`every seed that ever failed passes (${regressionSeeds.length})`, () => {
  const failures = regressionSeeds.flatMap((r) => runRange(r.seed, 1, r.maxFaults ? maxFaults : {}).failures.map((f) => `${f} (${r.cause})`));
  assert.equal(failures, [], failures.join("\n"));
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
  const r = runSimulation(13, { settleMs: 0 });
  assert.is(r.ok, false);
  assert.match(r.error ?? "", /liveness|linearizability/);
  assert.is(r.replay, 'npm run sim -- --seeds 1 --from 13 (with overrides {"settleMs":0})');
  assert.is(runSimulation(11, maxFaults).replay, "npm run sim -- --seeds 1 --from 11 --max-faults");
});

test("a traced run explains itself: every delivery, loss, crash and restart, and each node's state after each step", () => {
  const lines: string[] = [];
  const traced = runSimulation(7301321, {}, (line) => lines.push(line));
  const plain = runSimulation(7301321);
  assert.is(traced.traceHash, plain.traceHash, "tracing changes nothing");
  const text = lines.join("\n");
  for (const kind of [/ deliver append n\d->n\d t\d+ prev \d+\/\d+ /, / lost /, / partition: cut /, / heal$/m, / flush n\d: .*hard state t\d+ vote /, /client \d (put|get) /]) {
    assert.match(text, kind);
  }
  // After each delivery, the receiver's term, vote, commit and log.
  assert.match(text, /deliver voteResp n2->n1 t1 granted\n.* n1 leader t1 vote n1 leader n1 commit 0 applied 0 log 1@1/);
  const crashy = runSimulation(4242, {}, (line) => lines.push(line));
  assert.ok(crashy.counts.crashes > 0);
  assert.match(lines.join("\n"), / crash n\d: \d+ unflushed ready\(s\) lost\n(.|\n)* boot n\d \(gen [3-9]\) from disk: hard state t\d+/);
});

test.run();
