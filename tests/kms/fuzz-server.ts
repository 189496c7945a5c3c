import { readFile } from "node:fs/promises";
import { suite, type Test } from "uvu";
import { createFixture, runKms, type KmsFixture, type RunningKms } from "./kms-harness.js";

/** The fuzz suites' shared server: one real `kms` node (software HSM) over real TLS. */
export interface FuzzCtx {
  fx: KmsFixture | undefined;
  kms: RunningKms | undefined;
}

export function fuzzSuite(name: string): Test<FuzzCtx> {
  const s = suite<FuzzCtx>(name, { fx: undefined, kms: undefined });
  s.before(async (ctx) => {
    ctx.fx = await createFixture("software");
    ctx.kms = await runKms(ctx.fx, { KMS_HSM_KEY: "" });
  });
  s.after(async (ctx) => {
    await ctx.kms?.proc.stop();
    await ctx.fx?.cleanup();
  });
  return s;
}

/** The run's seed (FUZZ_SEED overrides the fixed default), printed so a failure can be replayed. */
export function fuzzSeed(name: string, fixed: number): number {
  const seed = Number(process.env.FUZZ_SEED ?? fixed);
  process.stdout.write(`${name}: seed ${seed} (FUZZ_SEED=${seed} replays it)\n`);
  return seed;
}

/** Resident set size of a process in bytes, from /proc (Linux). */
export async function rssOf(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid ?? "self"}/status`, "utf8");
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}
