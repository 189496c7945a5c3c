// The KMS state machine alone: a million key creations with request ids,
// applied as every replica applies them (issue 26). Prints the time of each
// 100,000 and the ratio of the slowest block after the first to the first
// (target <= 2: a write costs about the same with 100 or 1,000,000 keys; the
// collector's share grows a little with the heap, up to 1.5x here). Each
// write with a request id is remembered in the session table (100,000
// entries, oldest out first); evicting through a Map's first key made every
// block after the first 5-12x slower than the first.
import { randomBytes } from "node:crypto";
import { apply } from "../services/kms/src/domain/apply.js";
import { createEmptyState } from "../services/kms/src/domain/state.js";

const keys = Number(process.env["BENCH_KEYS"] ?? 1_000_000);
const block = Math.max(1, Math.floor(keys / 10));
const state = createEmptyState();
const meta = { issuedAt: new Date().toISOString(), issuedBy: `h1:${"A".repeat(43)}` };
apply(state, { ...meta, requestId: "", payload: { kind: "createEnclave", name: "default" } });
// Sealed material as the HSM returns it, made before timing.
const material = Array.from({ length: 1024 }, () => ({ sealedKey: randomBytes(73), sealedHmacKey: randomBytes(73) }));
const times: number[] = [];
let started = performance.now();
for (let i = 0; i < keys; i++) {
  const payload = { kind: "createKey", enclave: "default", name: `key-${i}`, algorithm: "AES256", material: material[i % 1024] as (typeof material)[number] } as const;
  apply(state, { ...meta, requestId: `018f7a2c-${i.toString(16).padStart(8, "0")}`, payload });
  if ((i + 1) % block === 0) {
    const now = performance.now();
    times.push(now - started);
    started = now;
  }
}
const first = times[0] ?? 1;
const worst = Math.max(...times.slice(1));
process.stdout.write(`apply ${keys} key creations with request ids, ms per ${block}: ${times.map((t) => t.toFixed(0)).join(" ")}\n`);
process.stdout.write(`slowest later block / first block: ${(worst / first).toFixed(2)}x (target <= 2x: ${worst / first <= 2 ? "met" : "NOT met"}); ${((1000 * times.reduce((a, b) => a + b, 0)) / keys).toFixed(1)} µs per write\n`);
