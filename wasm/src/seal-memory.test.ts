import { suite } from "uvu";
import * as assert from "uvu/assert";
import { generateKey, initCrypto, open, seal } from "./index.js";

const MiB = 1024 * 1024;

// ---
const Memory = suite("seal/open :: memory");
Memory.before(() => initCrypto());

Memory("should not grow the process :: one million seal+open pairs, RSS growth under 50 MiB", () => {
  const key = generateKey();
  const plaintext = generateKey(32);
  const ad = new Uint8Array([1, 2, 3]);
  // Warm-up first, so JIT code and the wasm heap's working size are not counted.
  for (let i = 0; i < 20_000; i += 1) open(key, seal(key, plaintext, ad), ad);
  const before = process.memoryUsage().rss;
  const started = Date.now();
  let checksum = 0;
  for (let i = 0; i < 1_000_000; i += 1) {
    const opened = open(key, seal(key, plaintext, ad), ad);
    checksum += opened[i & 31] ?? 0;
  }
  const growth = process.memoryUsage().rss - before;
  const seconds = (Date.now() - started) / 1000;
  // process.stdout.write, not console.log: the console's colour probe warns when
  // the test runner sets NO_COLOR and uvu sets FORCE_COLOR.
  process.stdout.write(`(1,000,000 seal+open in ${seconds.toFixed(1)} s, RSS growth ${(growth / MiB).toFixed(1)} MiB) `);
  assert.ok(checksum > 0);
  assert.ok(growth < 50 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB`);
});

Memory.run();
