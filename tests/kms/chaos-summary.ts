// The chaos run's report, as text lines: what was written and how it ended,
// which faults ran, and how long writes waited after each fault on the leader.
import { acknowledged, answersOf, countBy, failoverTimes, foldAnswer as fold, label, refusedButPresent, type Fault, type Outcome } from "./chaos-checks.js";

export function summary(outcomes: readonly Outcome[], faults: readonly Fault[], replicas: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const lines: string[] = [];
  const acked = acknowledged(outcomes).length;
  const failed = outcomes.filter((o) => o.result.kind !== "ok");
  lines.push(`writes: ${outcomes.length} attempted, ${acked} acknowledged, ${failed.length} failed`);
  for (const [what, n] of countBy(failed, (o) => label(o.result))) lines.push(`  ${String(n).padStart(5)}  ${what}`);

  // What the library retried past: invisible to the caller, but each was a client-facing answer.
  const retried = outcomes.flatMap((o) => answersOf(o).slice(0, o.result.kind === "ok" ? undefined : -1));
  lines.push(`answers retried or failed over by the client library: ${retried.length}`);
  for (const [what, n] of [...countBy(retried, fold)].slice(0, 8)) lines.push(`  ${String(n).padStart(5)}  ${what}`);
  lines.push("409s on own creates, with the attempts before them:");
  const conflicts = outcomes.filter((o) => o.result.kind === "http" && o.result.status === 409);
  const history = (o: Outcome): string => {
    const all = answersOf(o).map(fold);
    return `${all.at(-1) ?? ""} after ${all.slice(0, -1).join(" -> ") || "nothing (first attempt)"}`;
  };
  for (const [what, n] of countBy(conflicts, history)) lines.push(`  ${String(n).padStart(5)}× ${what}`);

  // Unknown outcomes may land either way; how they landed shows whether "unknown" was honest.
  const everywhere = new Set([...replicas.values()].flatMap((s) => [...s]));
  const unknown = failed.filter((o) => o.result.kind === "network" || (o.result.kind === "http" && o.result.status === 504));
  const landed = unknown.filter((o) => everywhere.has(o.key)).length;
  lines.push(`unknown outcomes (504 or network): ${unknown.length}, of which ${landed} applied and ${unknown.length - landed} not`);
  const refused = refusedButPresent(outcomes, replicas);
  lines.push(`answered "503 cluster has no leader" yet applied: ${refused.length}${refused.length > 0 ? ` (e.g. ${refused.slice(0, 3).join(", ")})` : ""}`);

  lines.push(`faults: ${faults.length} (${[...countBy(faults, (f) => f.kind)].map(([k, n]) => `${k} ${n}`).join(", ")})`);
  for (const { fault, ms } of failoverTimes(faults, outcomes)) {
    lines.push(`  ${fault.kind} ${fault.target} at +${fault.at - (outcomes[0]?.startedAt ?? fault.at)} ms: first acknowledged write through a survivor after ${ms === undefined ? "none" : `${ms} ms`}`);
  }
  return lines;
}
