// Long simulation runs: `npm run sim -- --seeds N --from SEED [--verbose]`.
// Exit status 1 when any seed fails; each failure prints its replay command.
// --verbose prints every event of each seed (meant for one seed: a replay);
// --max-faults turns every fault setting to the most the simulator draws.
import { maxFaults, runSimulation } from "./simulation.js";

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const raw = at >= 0 ? process.argv[at + 1] : undefined;
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    process.stderr.write(`sim: --${name} wants a non-negative integer, got ${raw ?? ""}\n`);
    process.exit(2);
  }
  return value;
}

const seeds = flag("seeds", 100);
const from = flag("from", 1);
const verbose = process.argv.includes("--verbose");
const max = process.argv.includes("--max-faults");
const started = performance.now();
let failed = 0;
for (let seed = from; seed < from + seeds; seed++) {
  const r = runSimulation(seed, max ? maxFaults : {}, verbose ? (line) => process.stdout.write(`${line}\n`) : undefined);
  if (verbose || !r.ok) {
    const p = r.params;
    process.stdout.write(
      `seed ${seed}: ${r.ok ? "ok" : "FAIL"} ${p.voters} voters${p.membership ? " +membership" : ""} loss ${p.loss} dup ${p.duplicate}; ` +
        `${r.events} events, ${r.leaderTerms} leader terms, ${r.opsOk} ops ok, ${r.opsUnknown} unknown, commit ${r.commitIndex}, trace ${r.traceHash}\n`,
    );
  }
  if (!r.ok) {
    failed++;
    process.stdout.write(`  ${r.error ?? ""}\n  replay: ${r.replay} --verbose\n`);
  }
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(`${seeds - failed}/${seeds} seeds passed (from ${from}${max ? ", max faults" : ""}) in ${seconds} s\n`);
process.exit(failed > 0 ? 1 : 0);
