import { test } from "uvu";
import * as assert from "uvu/assert";
import { rankOf, snapshotDue } from "./snapshot-stagger.js";

/** The entries at which a member snapshots while entries are applied in batches of `batch`. */
function snapshotsOf(rank: number, members: number, interval: number, upTo: number, batch = 1, start = 0): number[] {
  const taken: number[] = [];
  let last = start;
  for (let applied = start + batch; applied <= upTo; applied += batch) {
    if (snapshotDue({ applied, last, interval, rank: () => ({ rank, members }) })) {
      taken.push(applied);
      last = applied;
    }
  }
  return taken;
}

test("three members of one cluster snapshot a third of an interval apart, not at the same entry", () => {
  const at = [0, 1, 2].map((rank) => snapshotsOf(rank, 3, 9000, 40_000));
  assert.equal(at[0], [9000, 18000, 27000, 36000]);
  assert.equal(at[1], [6000, 15000, 24000, 33000]);
  assert.equal(at[2], [4500, 12000, 21000, 30000, 39000]);
  const all = at.flat().sort((a, b) => a - b);
  for (let i = 1; i < all.length; i++) assert.ok((all[i] ?? 0) - (all[i - 1] ?? 0) >= 1500, `snapshots at ${all[i - 1]} and ${all[i]} too close`);
});

test("a single member snapshots every interval, as before", () => {
  assert.equal(snapshotsOf(0, 1, 100, 450), [100, 200, 300, 400]);
});

test("the stagger survives a restart: the grid is absolute, not counted from the start", () => {
  const before = snapshotsOf(1, 3, 900, 3000);
  const afterRestart = snapshotsOf(1, 3, 900, 3000, 1, before[1] ?? 0);
  assert.equal(afterRestart, before.slice(2));
});

test("large batches still snapshot, never twice within half an interval", () => {
  const taken = snapshotsOf(2, 3, 1000, 10_000, 700);
  assert.ok(taken.length >= 8, `only ${taken.length} snapshots`);
  for (let i = 1; i < taken.length; i++) assert.ok((taken[i] ?? 0) - (taken[i - 1] ?? 0) >= 500);
});

test("ranks come from the sorted ids, whatever order the configuration lists them in", () => {
  assert.equal(rankOf("b", ["c", "a", "b"]), { rank: 1, members: 3 });
  assert.equal(rankOf("z", ["c", "a"]), { rank: 0, members: 2 });
  assert.equal(rankOf("a", []), { rank: 0, members: 1 });
});

test.run();
