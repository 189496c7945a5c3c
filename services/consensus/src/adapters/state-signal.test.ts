import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createStateSignal } from "./state-signal.js";

const signal = suite("state signal");

signal("re-checks at each notify and returns the first value", async () => {
  const s = createStateSignal();
  let state = 0;
  let checks = 0;
  const waiting = s.until(() => {
    checks++;
    return state >= 2 ? state : undefined;
  }, 5000);
  state = 1;
  s.notify();
  await new Promise((r) => setImmediate(r));
  state = 2;
  s.notify();
  assert.is(await waiting, 2);
  assert.is(checks, 3, "once at the start, once per notify");
});

signal("gives undefined once the time is up without a value", async () => {
  const s = createStateSignal();
  const started = Date.now();
  // The signal's timers do not hold the process open (a node's tick timer does): hold it here.
  const hold = setTimeout(() => undefined, 1000);
  assert.is(await s.until(() => undefined, 30), undefined);
  clearTimeout(hold);
  assert.ok(Date.now() - started >= 25);
});

signal.run();
