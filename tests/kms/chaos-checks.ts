// The verdicts of the chaos test, kept pure (outcome lists and replica sets
// in, findings out) so each one can be shown to fail on synthetic data.

/** What one create through the client library ended with, after all its retries. */
export type Result =
  | { readonly kind: "ok" }
  | { readonly kind: "http"; readonly status: number; readonly message: string }
  // Thrown by the client itself (refused, reset, timed out): the write may or may not have applied.
  | { readonly kind: "network"; readonly message: string };

/** One failed attempt of a write: an HTTP answer other than 2xx, or status 0 and the client's own network error. */
export interface Answer {
  readonly status: number;
  readonly message: string;
}

const fromServer = (a: Answer): boolean => a.status !== 0;

export interface Outcome {
  readonly writer: number;
  readonly key: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly result: Result;
  /** Every failed attempt, oldest first, including those the library retried past. */
  readonly answers?: readonly Answer[];
  /** HOST:PORT of the node that acknowledged it (ok only). */
  readonly answeredBy?: string;
}

export interface Fault {
  readonly kind: string;
  readonly target: string;
  readonly at: number;
  readonly healedAt: number;
  /** Whether the fault hit the node that was leading, so writes had to wait for a new (or resumed) leader. */
  readonly leader: boolean;
}

export const noLeader = "cluster has no leader";
export const outcomeUnknown = "outcome unknown: the change may have been applied; retry with the same request id";

// Internals a client must never see: NATS subjects, inbox names, node ids, host:port.
const leakPatterns: readonly RegExp[] = [
  /\bconsensus\.v1\./,
  /\bkms\.[A-Za-z]/,
  /_INBOX/,
  /\b\d{1,3}_\d{1,3}_\d{1,3}_\d{1,3}_\d{2,5}\b/,
  /\b\d{1,3}(?:\.\d{1,3}){3}:\d{2,5}\b/,
];

/** True when `message` names a subject, node id, host:port or one of the given cluster/node names. */
export function leaks(message: string, names: readonly string[] = []): boolean {
  return leakPatterns.some((re) => re.test(message)) || names.some((n) => n !== "" && message.includes(n));
}

export const acknowledged = (outcomes: readonly Outcome[]): string[] => outcomes.filter((o) => o.result.kind === "ok").map((o) => o.key);

/** Check 1: acknowledged keys each node's own replica lacks, per node. */
export function missingAcknowledged(outcomes: readonly Outcome[], replicas: ReadonlyMap<string, ReadonlySet<string>>): Map<string, string[]> {
  const acked = acknowledged(outcomes);
  const missing = new Map<string, string[]>();
  for (const [node, keys] of replicas) {
    const lost = acked.filter((k) => !keys.has(k));
    if (lost.length > 0) missing.set(node, lost);
  }
  return missing;
}

type HttpOutcome = Outcome & { readonly result: { readonly kind: "http"; readonly status: number; readonly message: string } };
const isHttp = (o: Outcome): o is HttpOutcome => o.result.kind === "http";

/** Check 2: a writer's names are its own and tried once, so any 409 is for its own create. */
export const ownConflicts = (outcomes: readonly Outcome[]): HttpOutcome[] => outcomes.filter(isHttp).filter((o) => o.result.status === 409);

/** Every failed attempt of a write: the recorded ones, else at least the final HTTP answer. */
export function answersOf(o: Outcome): Answer[] {
  if (o.answers && o.answers.length > 0) return [...o.answers];
  return o.result.kind === "http" ? [{ status: o.result.status, message: o.result.message }] : [];
}

/** Check 3: server answers, retried ones included, whose message names internals (network errors are the client's own text). */
export const leakyMessages = (outcomes: readonly Outcome[], names: readonly string[] = []): { key: string; answer: Answer }[] =>
  outcomes.flatMap((o) => answersOf(o).filter((a) => fromServer(a) && leaks(a.message, names)).map((answer) => ({ key: o.key, answer })));

// On a writer's own name "409 key already exists" is check 2's finding; counting it here too would only double it.
const honest = (r: { status: number; message: string }): boolean =>
  (r.status === 503 && r.message === noLeader) || (r.status === 504 && r.message === outcomeUnknown) || (r.status === 409 && r.message === "key already exists");

/**
 * Check 4: server answers outside the honest set (503 no leader, 504 outcome unknown; 409 exists is left to check 2),
 * retried ones included: a client with other retry rules would have been handed them.
 */
export const disallowedFailures = (outcomes: readonly Outcome[]): { key: string; answer: Answer; final: boolean }[] =>
  outcomes.flatMap((o) => {
    const all = answersOf(o);
    return all.flatMap((answer, i) => (fromServer(answer) && !honest(answer) ? [{ key: o.key, answer, final: i === all.length - 1 && o.result.kind !== "ok" }] : []));
  });

/** "503 cluster has no leader" is certain non-application; the key must not be on any replica. Informational: see the test. */
export function refusedButPresent(outcomes: readonly Outcome[], replicas: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const all = new Set([...replicas.values()].flatMap((s) => [...s]));
  return outcomes.filter(isHttp).filter((o) => o.result.status === 503 && o.result.message === noLeader && all.has(o.key)).map((o) => o.key);
}

/**
 * For each fault on the leader, the failover stall: ms from the fault to the
 * first acknowledged write started after it and answered by another node than
 * the one hit (undefined: none).
 */
export function failoverTimes(faults: readonly Fault[], outcomes: readonly Outcome[]): { fault: Fault; ms: number | undefined }[] {
  const acks = outcomes.filter((o) => o.result.kind === "ok");
  return faults
    .filter((f) => f.leader)
    .map((fault) => {
      const after = acks.filter((o) => o.startedAt >= fault.at && o.answeredBy !== fault.target).map((o) => o.endedAt);
      return { fault, ms: after.length > 0 ? Math.min(...after) - fault.at : undefined };
    });
}

/** Fault kinds the run was meant to inject but did not. */
export const missingKinds = (faults: readonly Fault[], kinds: readonly string[]): string[] => kinds.filter((k) => !faults.some((f) => f.kind === k));

/** Leader kills (kill -9) whose failover stall reached `limitMs`, or that no survivor ever got past. */
export const slowFailovers = (faults: readonly Fault[], outcomes: readonly Outcome[], limitMs: number): { fault: Fault; ms: number | undefined }[] =>
  failoverTimes(faults, outcomes).filter((f) => f.fault.kind === "kill-leader" && (f.ms === undefined || f.ms >= limitMs));

/** An answer for counting: node ids and addresses vary per run and per node, so they are folded. */
export const foldAnswer = (a: Answer): string =>
  (a.status === 0 ? `network: ${a.message}` : `${a.status} ${a.message}`).replace(/\d{1,3}(?:\.\d{1,3}){3}:\d+/g, "HOST:PORT").replace(/\d{1,3}_\d{1,3}_\d{1,3}_\d{1,3}_\d+/g, "NODE_ID");

/** Label of a final outcome for counting: `ok`, `503 cluster has no leader`, `network: …`. */
export const label = (r: Result): string => (r.kind === "ok" ? "ok" : foldAnswer({ status: r.kind === "http" ? r.status : 0, message: r.message }));

export function countBy<T>(items: readonly T[], key: (t: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const it of items) counts.set(key(it), (counts.get(key(it)) ?? 0) + 1);
  return new Map([...counts].sort((a, b) => b[1] - a[1]));
}

/** One violation line per failed check with its count and up to three examples; empty when all hold. */
export function violations(outcomes: readonly Outcome[], replicas: ReadonlyMap<string, ReadonlySet<string>>, names: readonly string[] = []): string[] {
  const out: string[] = [];
  const examples = (os: readonly Outcome[]): string => [...countBy(os, (o) => label(o.result))].slice(0, 3).map(([l, n]) => `${n}× "${l}"`).join("; ");
  const missing = missingAcknowledged(outcomes, replicas);
  for (const [node, keys] of missing) out.push(`check 1 (acknowledged keys present): ${keys.length} missing on ${node}, e.g. ${keys.slice(0, 3).join(", ")}`);
  const own = ownConflicts(outcomes);
  if (own.length > 0) out.push(`check 2 (no 409 for an own create): ${own.length}: ${examples(own)}`);
  const answerExamples = (as: readonly { key: string; answer: Answer }[]): string =>
    `${as.length} answers in ${new Set(as.map((a) => a.key)).size} writes: ${[...countBy(as, (a) => foldAnswer(a.answer))].slice(0, 4).map(([l, n]) => `${n}× "${l}"`).join("; ")}`;
  const leaky = leakyMessages(outcomes, names);
  if (leaky.length > 0) out.push(`check 3 (no internals in messages): ${answerExamples(leaky)}; first: "${leaky[0]?.answer.message ?? ""}"`);
  const bad = disallowedFailures(outcomes);
  if (bad.length > 0) out.push(`check 4 (only honest statuses): ${answerExamples(bad)} (${bad.filter((b) => b.final).length} final, the rest retried by the client)`);
  return out;
}

/** The kill -9 of a leader must cost writes through the survivors less than this (issue 27: 5 s stalls before). */
export const failoverLimitMs = 2000;

/**
 * The run's own verdicts, beside the answers': check 5, every fault kind
 * ran; check 6, no write refused with "503 cluster has no leader" is on any
 * replica (503 claims certain non-application; the client turns a 503 after
 * an unknown attempt into 504); check 7, each leader kill was followed by an
 * acknowledged write through a survivor within `failoverLimitMs`.
 */
export function runViolations(faults: readonly Fault[], kinds: readonly string[], outcomes: readonly Outcome[], replicas: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const out: string[] = [];
  const missing = missingKinds(faults, kinds);
  if (missing.length > 0) out.push(`check 5 (every fault kind ran): never ran: ${missing.join(", ")}`);
  const refused = refusedButPresent(outcomes, replicas);
  if (refused.length > 0) out.push(`check 6 (503 means not applied): ${refused.length} refused writes are present, e.g. ${refused.slice(0, 3).join(", ")}`);
  const slow = slowFailovers(faults, outcomes, failoverLimitMs);
  if (slow.length > 0) {
    out.push(`check 7 (failover under ${failoverLimitMs} ms): ${slow.map((f) => `${f.fault.target} at ${f.fault.at}: ${f.ms === undefined ? "no write got through" : `${f.ms} ms`}`).join("; ")}`);
  }
  return out;
}