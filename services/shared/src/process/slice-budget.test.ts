import { test } from "uvu";
import * as assert from "uvu/assert";
import { pacedBudget } from "./slice-budget.js";

/** Busy work in steps of about `stepMs`, pausing after each step; returns the work done and the wall time taken. */
async function run(budget: { pause(): Promise<void> }, totalMs: number, stepMs = 0.5): Promise<{ workedMs: number; wallMs: number }> {
  const began = performance.now();
  let worked = 0;
  while (worked < totalMs) {
    const t = performance.now();
    while (performance.now() - t < stepMs);
    worked += performance.now() - t;
    await budget.pause();
  }
  return { workedMs: worked, wallMs: performance.now() - began };
}

test("capped work takes at least its work divided by its cap (a share of a core)", async () => {
  const { workedMs, wallMs } = await run(pacedBudget(1, { cap: 0.25 }), 40);
  // The pacer sleeps off whatever it is ahead of the rate, so the lower bound holds on any machine.
  assert.ok(wallMs >= (workedMs / 0.25) * 0.9, `worked ${workedMs.toFixed(1)} ms in ${wallMs.toFixed(1)} ms`);
});

/** The delays of every setTimeout that `body` makes. */
async function sleepsOf(body: () => Promise<unknown>): Promise<number[]> {
  const real = globalThis.setTimeout;
  const delays: number[] = [];
  globalThis.setTimeout = ((callback: () => void, ms?: number) => {
    delays.push(ms ?? 0);
    return real(callback, ms);
  }) as typeof setTimeout;
  try {
    await body();
  } finally {
    globalThis.setTimeout = real;
  }
  return delays;
}

test("a cap of one never sleeps: it only yields between slices, like sliceBudget", async () => {
  assert.equal(await sleepsOf(() => run(pacedBudget(1, { cap: 1 }), 20)), []);
  assert.ok((await sleepsOf(() => run(pacedBudget(1, { cap: 0.5 }), 20))).length > 0, "a cap of a half never slept");
});

test("a cap that follows the load is asked at every slice", async () => {
  let share = 1;
  const budget = pacedBudget(1, { cap: () => share });
  const idle = await run(budget, 20);
  share = 0.25;
  const busy = await run(budget, 20);
  assert.ok(busy.wallMs >= (busy.workedMs / 0.25) * 0.9, `busy: worked ${busy.workedMs.toFixed(1)} ms in ${busy.wallMs.toFixed(1)} ms`);
  // The idle run's rest is not banked: the busy run was paced from its first slice.
  assert.ok(idle.wallMs < busy.wallMs, `idle ${idle.wallMs.toFixed(1)} ms, busy ${busy.wallMs.toFixed(1)} ms`);
});

test("its sleeps are whole milliseconds: one fractional delay makes every Timeout of the process hold a double", async () => {
  // A third of a core: the debt of each slice is its work times two, rarely a whole number.
  const delays = await sleepsOf(() => run(pacedBudget(1, { cap: 1 / 3 }), 20, 0.37));
  assert.ok(delays.length > 0, "a capped budget never slept");
  assert.equal(delays.filter((ms) => !Number.isInteger(ms)), []);
});

test("a floor gets the work its share of a busy event loop: it needs far fewer of the loop's turns", async () => {
  /** Runs `totalMs` of work beside a loop that keeps the event loop busy 3 ms per turn; counts the loop's turns meanwhile. */
  async function besideBusyLoop(pace: Parameters<typeof pacedBudget>[1]): Promise<number> {
    let turns = 0;
    let stop = false;
    const busy = (): void => {
      if (stop) return;
      turns++;
      const t = performance.now();
      while (performance.now() - t < 3);
      setImmediate(busy);
    };
    setImmediate(busy);
    // The work is counted in steps, not in the time they took: a machine that
    // descheduled this process mid-step would otherwise credit the stall as
    // work, and the run without a floor would finish in fewer turns.
    const budget = pacedBudget(0.1, pace);
    for (let step = 0; step < 300; step++) {
      const t = performance.now();
      while (performance.now() - t < 0.05);
      await budget.pause();
    }
    stop = true;
    return turns;
  }
  const plain = await besideBusyLoop({ cap: 1 });
  const floored = await besideBusyLoop({ cap: 1, floor: 0.3 });
  assert.ok(floored * 4 < plain, `turns of the busy loop: ${floored} with a floor, ${plain} without`);
});

test.run();
